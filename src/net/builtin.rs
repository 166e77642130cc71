//! The networks compiled into the binary, so that the engine stays one file. They are
//! parsed on first use: a run with `--eval classical` never pays for it.

use std::sync::{Arc, LazyLock};

use super::file::NetWeights;
use crate::board::Rule;

/// The files, one per rule that has a network (`nets/README.md` says how each was made).
const FILES: [&[u8]; 2] = [
    include_bytes!("../../nets/freestyle-gen2.frnn"),
    include_bytes!("../../nets/renju-gen1.frnn"),
];

static NETWORKS: LazyLock<Vec<Arc<NetWeights>>> = LazyLock::new(|| {
    FILES
        .iter()
        .map(|bytes| {
            // A unit test loads every built-in file, so this cannot fail in a release.
            Arc::new(NetWeights::from_bytes(bytes).expect("a built-in network loads"))
        })
        .collect()
});

/// Every built-in network.
pub fn networks() -> &'static [Arc<NetWeights>] {
    &NETWORKS
}

/// The built-in network of `rule`, if there is one.
pub fn for_rule(rule: Rule) -> Option<&'static NetWeights> {
    networks().iter().find(|n| n.rule == rule).map(|n| &**n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_network_loads() {
        assert_eq!(networks().len(), FILES.len());
        assert!(for_rule(Rule::Freestyle).is_some());
        assert!(for_rule(Rule::Renju).is_some());
        assert!(for_rule(Rule::Standard).is_none());
    }
}
