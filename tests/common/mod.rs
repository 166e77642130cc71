//! Helpers shared by the integration tests that run the Python scripts in `scripts/`.

use std::process::{Command, Output};

/// Runs `scripts/<script>` with `args` under python3 and returns what it did.
pub fn script_output(script: &str, args: &[&str]) -> Output {
    let root = env!("CARGO_MANIFEST_DIR");
    Command::new("python3")
        .arg(format!("{root}/scripts/{script}"))
        .args(args)
        .output()
        .expect("python3 runs")
}

/// Runs `scripts/<script>` with `args` under python3, asserts that it succeeded and
/// returns its standard output.
pub fn run_script(script: &str, args: &[&str]) -> String {
    let out = script_output(script, args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}
