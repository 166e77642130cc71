//! A minimal JSON parser (RFC 8259, std only), used to read the JSONL test data
//! (puzzles, rule cases) in tests and in the `solve` tool.
//!
//! Objects keep their fields in document order (`Vec<(String, Json)>`); with a
//! duplicated key, [`Json::get`] returns the first occurrence.

/// A parsed JSON value.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

/// Nesting deeper than this is rejected (protects the recursive parser's stack).
const MAX_DEPTH: usize = 512;

/// Parses `text`, which must hold exactly one JSON value (surrounding whitespace is
/// allowed).
pub fn parse(text: &str) -> Result<Json, String> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
        depth: 0,
    };
    p.skip_ws();
    let v = p.value()?;
    p.skip_ws();
    if p.i != p.s.len() {
        return Err(p.err("trailing characters after the value"));
    }
    Ok(v)
}

impl Json {
    /// The value of field `key` of an object (first occurrence).
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The number as an `i64`, only when it is integral and in range.
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            // 2^63 as f64 is exactly representable; the range is [-2^63, 2^63).
            Json::Num(n)
                if n.is_finite()
                    && n.fract() == 0.0
                    && (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&n) =>
            {
                Some(n as i64)
            }
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Json::Bool(b) => Some(b),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Arr(a) => Some(a),
            _ => None,
        }
    }

    /// `[[x, y], ...]` as a list of points; `None` unless every element is a
    /// two-element array of integers that fit in `i32`.
    pub fn as_points(&self) -> Option<Vec<(i32, i32)>> {
        self.as_array()?
            .iter()
            .map(|p| match p.as_array()? {
                [x, y] => Some((
                    i32::try_from(x.as_i64()?).ok()?,
                    i32::try_from(y.as_i64()?).ok()?,
                )),
                _ => None,
            })
            .collect()
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    depth: usize,
}

impl Parser<'_> {
    fn err(&self, msg: &str) -> String {
        format!("JSON error at byte {}: {}", self.i, msg)
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.i += 1;
        }
    }

    fn expect_lit(&mut self, lit: &str, v: Json) -> Result<Json, String> {
        if self.s[self.i..].starts_with(lit.as_bytes()) {
            self.i += lit.len();
            Ok(v)
        } else {
            Err(self.err("invalid literal"))
        }
    }

    fn value(&mut self) -> Result<Json, String> {
        match self.peek() {
            None => Err(self.err("unexpected end of input")),
            Some(b'n') => self.expect_lit("null", Json::Null),
            Some(b't') => self.expect_lit("true", Json::Bool(true)),
            Some(b'f') => self.expect_lit("false", Json::Bool(false)),
            Some(b'"') => Ok(Json::Str(self.string()?)),
            Some(b'[') => self.array(),
            Some(b'{') => self.object(),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.err("unexpected character")),
        }
    }

    fn enter(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err("nesting too deep"));
        }
        Ok(())
    }

    fn array(&mut self) -> Result<Json, String> {
        self.enter()?;
        self.i += 1; // '['
        let mut items = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.i += 1;
            self.depth -= 1;
            return Ok(Json::Arr(items));
        }
        loop {
            self.skip_ws();
            items.push(self.value()?);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    self.depth -= 1;
                    return Ok(Json::Arr(items));
                }
                _ => return Err(self.err("expected ',' or ']' in array")),
            }
        }
    }

    fn object(&mut self) -> Result<Json, String> {
        self.enter()?;
        self.i += 1; // '{'
        let mut fields = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.i += 1;
            self.depth -= 1;
            return Ok(Json::Obj(fields));
        }
        loop {
            self.skip_ws();
            if self.peek() != Some(b'"') {
                return Err(self.err("expected a string key in object"));
            }
            let key = self.string()?;
            self.skip_ws();
            if self.peek() != Some(b':') {
                return Err(self.err("expected ':' after object key"));
            }
            self.i += 1;
            self.skip_ws();
            let v = self.value()?;
            fields.push((key, v));
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    self.depth -= 1;
                    return Ok(Json::Obj(fields));
                }
                _ => return Err(self.err("expected ',' or '}' in object")),
            }
        }
    }

    fn number(&mut self) -> Result<Json, String> {
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.peek() {
            Some(b'0') => self.i += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.err("expected a digit in number")),
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.err("expected a digit after '.'"));
            }
            self.digits();
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.i += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.err("expected a digit in exponent"));
            }
            self.digits();
        }
        // The slice is ASCII by construction.
        let text = std::str::from_utf8(&self.s[start..self.i]).expect("ASCII number");
        text.parse::<f64>()
            .map(Json::Num)
            .map_err(|e| self.err(&format!("bad number {text:?}: {e}")))
    }

    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.i += 1;
        }
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let mut v = 0u32;
        for _ in 0..4 {
            let d = match self.peek() {
                Some(c @ b'0'..=b'9') => c - b'0',
                Some(c @ b'a'..=b'f') => c - b'a' + 10,
                Some(c @ b'A'..=b'F') => c - b'A' + 10,
                _ => return Err(self.err("expected 4 hex digits after \\u")),
            };
            v = v * 16 + u32::from(d);
            self.i += 1;
        }
        Ok(v)
    }

    /// Parses a string starting at the opening quote.
    fn string(&mut self) -> Result<String, String> {
        self.i += 1; // '"'
        let mut out = String::new();
        loop {
            // Copy the run of plain bytes up to the next quote, backslash or control
            // character. The input is a &str, and the run ends on an ASCII byte, so the
            // run is valid UTF-8.
            let run_start = self.i;
            while let Some(c) = self.peek() {
                if c == b'"' || c == b'\\' || c < 0x20 {
                    break;
                }
                self.i += 1;
            }
            out.push_str(std::str::from_utf8(&self.s[run_start..self.i]).expect("UTF-8 run"));
            match self.peek() {
                None => return Err(self.err("unterminated string")),
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.i += 1;
                    let esc = self.peek().ok_or_else(|| self.err("unterminated escape"))?;
                    self.i += 1;
                    match esc {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let c = self.unicode_escape()?;
                            out.push(c);
                        }
                        _ => {
                            self.i -= 1;
                            return Err(self.err("invalid escape"));
                        }
                    }
                }
                Some(_) => return Err(self.err("control character in string")),
            }
        }
    }

    /// After `\u`: one code unit, or a surrogate pair `\uD8xx\uDCxx`.
    fn unicode_escape(&mut self) -> Result<char, String> {
        let hi = self.hex4()?;
        let code = match hi {
            0xD800..=0xDBFF => {
                if !self.s[self.i..].starts_with(b"\\u") {
                    return Err(self.err("high surrogate not followed by \\u escape"));
                }
                self.i += 2;
                let lo = self.hex4()?;
                if !(0xDC00..=0xDFFF).contains(&lo) {
                    return Err(self.err("high surrogate not followed by a low surrogate"));
                }
                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
            }
            0xDC00..=0xDFFF => return Err(self.err("unpaired low surrogate")),
            _ => hi,
        };
        char::from_u32(code).ok_or_else(|| self.err("invalid code point"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> Json {
        Json::Str(v.to_string())
    }

    #[test]
    fn scalars() {
        assert_eq!(parse("null"), Ok(Json::Null));
        assert_eq!(parse(" true "), Ok(Json::Bool(true)));
        assert_eq!(parse("\n\tfalse\r\n"), Ok(Json::Bool(false)));
        assert_eq!(parse("0"), Ok(Json::Num(0.0)));
        assert_eq!(parse("-0"), Ok(Json::Num(-0.0)));
        assert_eq!(parse("42"), Ok(Json::Num(42.0)));
        assert_eq!(parse("-17"), Ok(Json::Num(-17.0)));
        assert_eq!(parse("3.25"), Ok(Json::Num(3.25)));
        assert_eq!(parse("1e3"), Ok(Json::Num(1000.0)));
        assert_eq!(parse("1E+2"), Ok(Json::Num(100.0)));
        assert_eq!(parse("-2.5e-1"), Ok(Json::Num(-0.25)));
        assert_eq!(parse("\"\""), Ok(s("")));
        assert_eq!(parse("\"abc\""), Ok(s("abc")));
    }

    #[test]
    fn escapes() {
        assert_eq!(
            parse(r#""a\"b\\c\/d\b\f\n\r\t""#),
            Ok(s("a\"b\\c/d\u{8}\u{c}\n\r\t"))
        );
        assert_eq!(parse(r#""\u0041\u00e9\u4E2D""#), Ok(s("Aé中")));
        // U+1F600 as a surrogate pair, and raw UTF-8 left untouched.
        assert_eq!(parse(r#""\ud83d\ude00""#), Ok(s("\u{1F600}")));
        assert_eq!(parse("\"寒星 溪月 😀\""), Ok(s("寒星 溪月 😀")));
        assert_eq!(parse(r#""x\u0000y""#), Ok(s("x\u{0}y")));
    }

    #[test]
    fn containers() {
        assert_eq!(parse("[]"), Ok(Json::Arr(vec![])));
        assert_eq!(parse("{ }"), Ok(Json::Obj(vec![])));
        assert_eq!(
            parse(r#" [1, "a", [true, null], {"k": []}] "#),
            Ok(Json::Arr(vec![
                Json::Num(1.0),
                s("a"),
                Json::Arr(vec![Json::Bool(true), Json::Null]),
                Json::Obj(vec![("k".to_string(), Json::Arr(vec![]))]),
            ]))
        );
        let v = parse(r#"{"a": 1, "b": {"c": "d"}, "a": 2}"#).unwrap();
        assert_eq!(v.get("a"), Some(&Json::Num(1.0)));
        assert_eq!(v.get("b").and_then(|b| b.get("c")), Some(&s("d")));
        assert_eq!(v.get("zz"), None);
        assert_eq!(Json::Num(1.0).get("a"), None);
    }

    #[test]
    fn accessors() {
        let v = parse(
            r#"{"id": "x", "n": 15, "f": 1.5, "big": 1e300, "neg": -3, "ok": true,
               "pts": [[7, 7], [0, 14]], "bad": [[1, 2, 3]], "badf": [[1.5, 2]],
               "empty": []}"#,
        )
        .unwrap();
        assert_eq!(v.get("id").and_then(Json::as_str), Some("x"));
        assert_eq!(v.get("n").and_then(Json::as_i64), Some(15));
        assert_eq!(v.get("neg").and_then(Json::as_i64), Some(-3));
        assert_eq!(v.get("f").and_then(Json::as_i64), None);
        assert_eq!(v.get("big").and_then(Json::as_i64), None);
        assert_eq!(v.get("id").and_then(Json::as_i64), None);
        assert_eq!(v.get("ok").and_then(Json::as_bool), Some(true));
        assert_eq!(v.get("n").and_then(Json::as_bool), None);
        assert_eq!(v.get("n").and_then(Json::as_str), None);
        assert_eq!(
            v.get("pts").and_then(Json::as_points),
            Some(vec![(7, 7), (0, 14)])
        );
        assert_eq!(
            v.get("pts").and_then(Json::as_array).map(<[_]>::len),
            Some(2)
        );
        assert_eq!(v.get("bad").and_then(Json::as_points), None);
        assert_eq!(v.get("badf").and_then(Json::as_points), None);
        assert_eq!(v.get("empty").and_then(Json::as_points), Some(vec![]));
        assert_eq!(v.get("id").and_then(Json::as_points), None);
        assert_eq!(
            Json::Num(-9.223_372_036_854_776e18).as_i64(),
            Some(i64::MIN)
        );
        assert_eq!(Json::Num(9.223_372_036_854_776e18).as_i64(), None);
        assert_eq!(Json::Num(f64::NAN).as_i64(), None);
    }

    #[test]
    fn rejects_invalid() {
        for bad in [
            "",
            "   ",
            "nul",
            "truex",
            "[1,]",
            "[1 2]",
            "{\"a\" 1}",
            "{\"a\":1,}",
            "{a:1}",
            "[",
            "{",
            "\"abc",
            "\"a\\x\"",
            "\"a\tb\"",
            "\"\\u12\"",
            "\"\\ud83d\"",
            "\"\\ud83d\\u0041\"",
            "\"\\ude00\"",
            "01",
            "-",
            "1.",
            ".5",
            "1e",
            "+1",
            "NaN",
            "1 2",
            "[] []",
            "'a'",
        ] {
            assert!(parse(bad).is_err(), "should reject {bad:?}");
        }
        let deep = "[".repeat(100_000) + &"]".repeat(100_000);
        assert!(parse(&deep).is_err());
        let ok_deep = "[".repeat(100) + &"]".repeat(100);
        assert!(parse(&ok_deep).is_ok());
    }

    /// Every line of every .jsonl file under tests/data parses to an object with
    /// an `id`, and the point lists it holds are well formed.
    #[test]
    fn parses_all_data_files() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
        let mut files = Vec::new();
        let mut dirs = vec![root.clone()];
        while let Some(d) = dirs.pop() {
            let entries = std::fs::read_dir(&d)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", d.display()));
            for e in entries {
                let p = e.unwrap().path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|x| x == "jsonl") {
                    files.push(p);
                }
            }
        }
        files.sort();
        assert!(
            !files.is_empty(),
            "no .jsonl files under {}",
            root.display()
        );
        let mut total = 0;
        for f in &files {
            let text = std::fs::read_to_string(f).unwrap();
            for (n, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                let v = parse(line).unwrap_or_else(|e| panic!("{}:{}: {e}", f.display(), n + 1));
                assert!(
                    v.get("id").and_then(Json::as_str).is_some(),
                    "{}:{}: no string id",
                    f.display(),
                    n + 1
                );
                for key in ["black", "white", "moves", "answers", "line", "forbidden"] {
                    // (`forbidden` is a bool in renju_forbidden.jsonl.)
                    if let Some(pts @ Json::Arr(_)) = v.get(key) {
                        assert!(
                            pts.as_points().is_some(),
                            "{}:{}: {key} is not a point list",
                            f.display(),
                            n + 1
                        );
                    }
                }
                if let Some(size) = v.get("size") {
                    assert!(size.as_i64().is_some_and(|n| (5..=32).contains(&n)));
                }
                total += 1;
            }
        }
        assert!(total > 3000, "only {total} records");
    }
}
