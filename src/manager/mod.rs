//! The manager's side of the protocol, shared by `ferrum-arena` and the web board:
//! engine processes, the referee (our own rules code) and `.psq` records.

pub mod process;
pub mod psq;
pub mod referee;
