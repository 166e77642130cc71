//! The network file: what the engine loads. Little-endian:
//! - header: `b"FRNN"`, version `u16`, rule `u8` (Gomocup number), features `u16`,
//!   hidden units `u16`, shapes `u32`, payload bytes `u32`, FNV-1a 64 checksum `u64`
//!   of the header's bytes 4-18 and 27 and the payload (version 3: of the payload
//!   alone), flags `u8` (1: the value corrects the classical evaluation);
//! - payload: the shape table as `i16` in units of 1/`ACC_ONE` (the only large part,
//!   and the one summed incrementally), then the two heads (Black to move, White to
//!   move), each its hidden layer's weights and biases, the output weights and bias and
//!   the policy weights and bias and the base weight (`Head::base_w`) as `f32`.

use anyhow::{bail, ensure, Context, Result};

use super::model::{Head, Model, FEATURES, HEAD_PARAMS, HIDDEN};
use super::shape::SHAPES;
use crate::board::Rule;

pub const MAGIC: &[u8; 4] = b"FRNN";
/// Version 4's checksum covers the header too: a damaged rule or flags byte put a
/// network under another rule or changed what its value means. Version 3 still loads.
pub const VERSION: u16 = 4;
const OLDEST_VERSION: u16 = 3;
const HEADER_BYTES: usize = 4 + 2 + 1 + 2 + 2 + 4 + 4 + 8 + 1;
/// Where the checksum stands in the header.
const CHECKSUM_AT: std::ops::Range<usize> = 19..27;
/// The largest head weight a file may hold: larger ones (finite) can overflow the head's
/// sums to infinities and NaN, which would score every position 0 without a word.
const MAX_HEAD_WEIGHT: f32 = 1e6;
/// The size of a network file of this build.
pub const FILE_BYTES: usize = HEADER_BYTES + PAYLOAD_BYTES;
const PAYLOAD_BYTES: usize = SHAPES * FEATURES * 2 + 2 * 4 * HEAD_PARAMS;
/// A cell feature of 1.0 (the top of the clipped range) in the integer table.
pub const ACC_ONE: i32 = 256;
/// The shape table's range: a cell's four rows summed fit in `i16`.
const TABLE_MIN: i16 = -8192;
const TABLE_MAX: i16 = 8191;

/// The network as the engine holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct NetWeights {
    pub rule: Rule,
    /// `shapes[shape]` in units of 1/`ACC_ONE`.
    pub shapes: Vec<[i16; FEATURES]>,
    /// `heads[side to move]`.
    pub heads: [Head; 2],
    /// The value corrects the classical evaluation (`Model::residual`).
    pub residual: bool,
    /// `hidden_by_input[side][k][j]`: `heads[side].hidden_w[j][k]`, so that the
    /// engine sums the hidden layer one input at a time, across units, which the
    /// compiler vectorizes (per-unit dot products it cannot, keeping their order).
    pub hidden_by_input: [[[f32; HIDDEN]; FEATURES]; 2],
}

impl NetWeights {
    /// The trained model quantized for `rule`.
    pub fn quantize(model: &Model, rule: Rule) -> NetWeights {
        let q = |v: f32| {
            (v * ACC_ONE as f32)
                .round()
                .clamp(TABLE_MIN as f32, TABLE_MAX as f32) as i16
        };
        let shapes = model.shapes.iter().map(|row| row.map(q)).collect();
        NetWeights::new(rule, shapes, model.heads.clone(), model.residual)
    }

    /// The float model these weights came from, up to the table's rounding: where a
    /// next generation's training starts (`train --init`).
    pub fn model(&self) -> Model {
        let shapes = self
            .shapes
            .iter()
            .map(|row| row.map(|v| v as f32 / ACC_ONE as f32))
            .collect();
        Model {
            shapes,
            heads: self.heads.clone(),
            residual: self.residual,
        }
    }

    fn new(rule: Rule, shapes: Vec<[i16; FEATURES]>, heads: [Head; 2], residual: bool) -> Self {
        let hidden_by_input = std::array::from_fn(|side| {
            std::array::from_fn(|k| std::array::from_fn(|j| heads[side].hidden_w[j][k]))
        });
        NetWeights {
            rule,
            shapes,
            heads,
            residual,
            hidden_by_input,
        }
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut payload = Vec::with_capacity(SHAPES * FEATURES * 2 + 8 * HEAD_PARAMS);
        for row in &self.shapes {
            row.iter()
                .for_each(|v| payload.extend_from_slice(&v.to_le_bytes()));
        }
        let floats = self.heads.iter().flat_map(Head::params);
        floats.for_each(|v| payload.extend_from_slice(&v.to_le_bytes()));
        let mut out = Vec::with_capacity(HEADER_BYTES + payload.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.push(self.rule.gomocup_value() as u8);
        out.extend_from_slice(&(FEATURES as u16).to_le_bytes());
        out.extend_from_slice(&(HIDDEN as u16).to_le_bytes());
        out.extend_from_slice(&(SHAPES as u32).to_le_bytes());
        out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        out.extend_from_slice(&[0; 8]);
        out.push(self.residual as u8);
        out.extend_from_slice(&payload);
        let checksum = checksum(&out, VERSION);
        out[CHECKSUM_AT].copy_from_slice(&checksum.to_le_bytes());
        out
    }

    /// Reads a network file, refusing one that is truncated, corrupt or made for
    /// another build's sizes, with a message that says which.
    pub fn from_bytes(bytes: &[u8]) -> Result<NetWeights> {
        ensure!(
            bytes.starts_with(MAGIC),
            "not a Ferrum network file (no FRNN header)"
        );
        ensure!(
            bytes.len() >= HEADER_BYTES,
            "network file truncated: {} bytes, not even its header",
            bytes.len()
        );
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap());
        let version = u16_at(4);
        ensure!(
            (OLDEST_VERSION..=VERSION).contains(&version),
            "network file version {version}, this build reads {OLDEST_VERSION} to {VERSION}"
        );
        let rule = Rule::ALL
            .into_iter()
            .find(|r| r.gomocup_value() == bytes[6] as i64)
            .with_context(|| format!("network file names no known rule ({})", bytes[6]))?;
        let (features, hidden, shapes) =
            (u16_at(7) as usize, u16_at(9) as usize, u32_at(11) as usize);
        if (features, hidden, shapes) != (FEATURES, HIDDEN, SHAPES) {
            bail!(
                "network file has {features} features, {hidden} hidden units and {shapes} shapes; this build wants {FEATURES}, {HIDDEN} and {SHAPES}"
            );
        }
        let length = u32_at(15) as usize;
        let stored = u64::from_le_bytes(bytes[CHECKSUM_AT].try_into().unwrap());
        let payload = &bytes[HEADER_BYTES..];
        ensure!(
            payload.len() == length && length == PAYLOAD_BYTES,
            "network file truncated or padded: {} payload bytes, {PAYLOAD_BYTES} expected",
            payload.len()
        );
        ensure!(
            checksum(bytes, version) == stored,
            "network file corrupt (checksum mismatch)"
        );
        ensure!(
            bytes[27] <= 1,
            "network file has unknown flags {}",
            bytes[27]
        );
        let (table, rest) = payload.split_at(SHAPES * FEATURES * 2);
        let shapes: Vec<[i16; FEATURES]> = table
            .chunks_exact(FEATURES * 2)
            .map(|row| std::array::from_fn(|k| i16::from_le_bytes([row[2 * k], row[2 * k + 1]])))
            .collect();
        // Four rows summed must fit in i16 (the incremental sums), as `quantize` keeps them.
        ensure!(
            shapes
                .iter()
                .flatten()
                .all(|v| (TABLE_MIN..=TABLE_MAX).contains(v)),
            "network file has shape values outside {TABLE_MIN}..={TABLE_MAX}"
        );
        let mut floats = rest
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().expect("4 bytes")));
        let mut heads = [Head::ZERO, Head::ZERO];
        for w in heads.iter_mut().flat_map(Head::params_mut) {
            *w = floats.next().expect("length checked");
        }
        ensure!(
            heads.iter().flat_map(Head::params).all(|w| w.is_finite()),
            "network file has weights that are not finite numbers"
        );
        ensure!(
            heads
                .iter()
                .flat_map(Head::params)
                .all(|w| w.abs() <= MAX_HEAD_WEIGHT),
            "network file has head weights beyond {MAX_HEAD_WEIGHT:e}"
        );
        Ok(NetWeights::new(rule, shapes, heads, bytes[27] == 1))
    }
}

/// The checksum of a whole file (`bytes`, header included) in its `version`'s form.
fn checksum(bytes: &[u8], version: u16) -> u64 {
    let payload = &bytes[HEADER_BYTES..];
    if version == 3 {
        return fnv1a(payload);
    }
    let header = bytes[4..CHECKSUM_AT.start]
        .iter()
        .chain(&bytes[27..HEADER_BYTES]);
    fnv1a_from(fnv1a_from(FNV_START, header), payload)
}

const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a, 64 bits: a checksum that catches a damaged download or a wrong file (and
/// the trainer's stable hash of an opening).
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_from(FNV_START, bytes)
}

fn fnv1a_from<'a>(start: u64, bytes: impl IntoIterator<Item = &'a u8>) -> u64 {
    bytes.into_iter().fold(start, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_round_trip_and_damage_is_refused() {
        let residual = Model {
            residual: true,
            ..Model::random(3)
        };
        let net = NetWeights::quantize(&residual, Rule::Renju);
        let bytes = net.to_bytes();
        assert_eq!(NetWeights::from_bytes(&bytes).unwrap(), net);
        let err = |b: &[u8]| NetWeights::from_bytes(b).unwrap_err().to_string();
        assert!(err(&bytes[..bytes.len() - 3]).contains("truncated"));
        let mut flipped = bytes.clone();
        flipped[HEADER_BYTES + 100] ^= 1;
        assert!(err(&flipped).contains("checksum"));
        let mut other = bytes.clone();
        other[7] = 64;
        assert!(err(&other).contains("64 features"));
        // The header is checksummed: another rule, another meaning of the value.
        for (at, value) in [(6, 0), (6, 8), (27, 0)] {
            let mut header = bytes.clone();
            header[at] = value;
            assert!(err(&header).contains("checksum"), "byte {at} = {value}");
        }
        // Rule numbers other than a rule's own (2: Gomocup's continuous bit) are refused.
        let signed = |at: usize, value: u8| {
            let mut b = bytes.clone();
            b[at] = value;
            let sum = checksum(&b, VERSION);
            b[CHECKSUM_AT].copy_from_slice(&sum.to_le_bytes());
            b
        };
        assert!(err(&signed(6, 2)).contains("no known rule (2)"));
        assert!(err(&signed(27, 2)).contains("flags 2"));
        // Version 3 files, checksummed over the payload alone, still load.
        let mut old = bytes.clone();
        old[4..6].copy_from_slice(&3u16.to_le_bytes());
        let sum = fnv1a(&old[HEADER_BYTES..]);
        old[CHECKSUM_AT].copy_from_slice(&sum.to_le_bytes());
        assert_eq!(NetWeights::from_bytes(&old).unwrap(), net);
        assert!(err(&bytes[..20]).contains("truncated: 20 bytes"));
        assert!(err(b"GIF89a").contains("not a Ferrum network"));
        let mut future = bytes.clone();
        future[4] = 9;
        assert!(err(&future).contains("version 9"));
        // Well-formed files, checksum and all, with values this build cannot use.
        let mut wide = net.clone();
        wide.shapes[5][3] = 9000;
        assert!(err(&wide.to_bytes()).contains("shape values outside"));
        let mut nan = net.clone();
        *nan.heads[1].params_mut().nth(7).unwrap() = f32::NAN;
        assert!(err(&nan.to_bytes()).contains("not finite"));
        let mut huge = net;
        *huge.heads[0].params_mut().nth(3).unwrap() = -1e38;
        assert!(err(&huge.to_bytes()).contains("beyond"));
    }

    #[test]
    fn the_model_of_a_network_quantizes_back_to_it() {
        let net = NetWeights::quantize(&Model::random(5), Rule::Freestyle);
        let model = net.model();
        assert!(!model.residual);
        assert_eq!(NetWeights::quantize(&model, Rule::Freestyle), net);
        assert_ne!(model, Model::random(5), "the table is rounded, not copied");
    }
}
