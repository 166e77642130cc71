//! Sets `FERRUM_COMMIT` (the short hash of the commit being built) for `ABOUT` and
//! `--version`: "unknown" where git or the repository is absent (a source tarball),
//! unless the builder passes FERRUM_COMMIT in the environment.

use std::path::{Path, PathBuf};
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let text = text.trim();
    (out.status.success() && !text.is_empty()).then(|| text.to_string())
}

fn main() {
    println!("cargo:rerun-if-env-changed=FERRUM_COMMIT");
    // ABOUT's values may hold no ',', '=' or '"': keep a hash's characters only.
    let clean = |s: String| -> Option<String> {
        let s: String = s
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || "-._".contains(*c))
            .collect();
        (!s.is_empty()).then_some(s)
    };
    let given = std::env::var("FERRUM_COMMIT").ok().and_then(clean);
    let commit = given
        .clone()
        .or_else(|| git(&["rev-parse", "--short=12", "HEAD"]).and_then(clean))
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=FERRUM_COMMIT={commit}");
    if given.is_some() {
        return;
    }
    // Rerun when HEAD moves: HEAD (a checkout), its reflog and the branch's ref (a
    // commit, a reset), packed-refs (a gc). Worktrees keep HEAD apart from the refs.
    let path = |dir: Option<String>| dir.map(PathBuf::from);
    if let Some(git_dir) = path(git(&["rev-parse", "--git-dir"])) {
        watch(&git_dir.join("HEAD"));
        watch(&git_dir.join("logs/HEAD"));
        let common = path(git(&["rev-parse", "--git-common-dir"])).unwrap_or(git_dir);
        if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
            watch(&common.join(branch));
        }
        watch(&common.join("packed-refs"));
    }
}

/// Only existing paths: cargo reruns the script at every build for a missing one.
fn watch(path: &Path) {
    if path.exists() {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}
