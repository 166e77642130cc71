//! Reading the point lists of the JSON test data (`tests/data`), shared by the tests
//! that read it.

use serde_json::Value as Json;

/// `[[x, y], ...]` as points; `None` unless every element is a pair of integers.
pub fn as_points(j: &Json) -> Option<Vec<(i32, i32)>> {
    j.as_array()?
        .iter()
        .map(|p| match p.as_array()?.as_slice() {
            [x, y] => Some((
                i32::try_from(x.as_i64()?).ok()?,
                i32::try_from(y.as_i64()?).ok()?,
            )),
            _ => None,
        })
        .collect()
}
