//! `pbrain-ferrum board`: a local web board. A page compiled into the binary talks
//! over a WebSocket to this server, which referees with our rules code and runs any
//! pbrain engine as a child process (see docs/board.md).

mod connection;
mod engine_link;
mod game;
mod http;
mod messages;
mod server;
mod session;

use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener};

use anyhow::{bail, Context, Result};

/// Options of `pbrain-ferrum board`.
#[derive(clap::Args, Debug)]
pub struct Options {
    /// Port on 127.0.0.1 (0: any free port)
    #[arg(long, default_value_t = 8077)]
    port: u16,
    /// Listen on ADDR (ip:port) instead of 127.0.0.1; the page must then be opened by
    /// that address
    #[arg(long, value_name = "ADDR")]
    listen: Option<SocketAddr>,
    /// The engine: a pbrain program and its arguments, split at spaces [default: this
    /// program]
    #[arg(long, value_name = "CMD ARGS")]
    engine: Option<String>,
}

/// Serves the board until the process is stopped. Without `--engine`, this program
/// plays, with `own_options` (the search and evaluation options it was given).
pub fn run(options: &Options, own_options: &[String]) -> Result<()> {
    let engine: Vec<String> = match &options.engine {
        Some(cmd) => cmd.split_whitespace().map(String::from).collect(),
        None => {
            let program =
                std::env::current_exe().context("cannot find this program to run as the engine")?;
            let mut engine = vec![program.to_string_lossy().into_owned()];
            engine.extend(own_options.iter().cloned());
            engine
        }
    };
    if engine.is_empty() {
        bail!("empty --engine command");
    }
    let addr = options.listen.unwrap_or(SocketAddr::new(
        IpAddr::V4(Ipv4Addr::LOCALHOST),
        options.port,
    ));
    let listener = TcpListener::bind(addr).with_context(|| format!("cannot listen on {addr}"))?;
    let local = listener.local_addr()?;
    // Tests and scripts read the address from this line.
    println!(
        "Ferrum board: http://{local}/ (engine: {})",
        engine.join(" ")
    );
    server::serve(listener, engine)
}
