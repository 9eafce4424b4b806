//! Tokenizer for FlatZinc text: reads a source string one token at a time,
//! each token knowing its line and column.
//!
//! It works on the source's bytes and lends identifiers as slices of the
//! source, so reading a token allocates nothing (a string literal with an
//! escape aside), and the parser pulls the tokens one by one instead of
//! holding them all: a FlatZinc file of millions of tokens costs its text
//! and its syntax tree, nothing per token.

use crate::error::{ParseError, ParseErrorKind};
use crate::pos::Pos;

/// What a token is; keywords are plain identifiers and the parser tells them apart.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TokenKind<'a> {
    /// An identifier or keyword such as `var`, `int_lin_eq` or `X_INTRODUCED_3_`.
    Ident(&'a str),
    /// An integer literal, sign included.
    Int(i64),
    /// A floating-point literal, sign included.
    Float(f64),
    /// A string literal with its escapes resolved.
    Str(String),
    /// `:`
    Colon,
    /// `::`
    ColonColon,
    /// `;`
    Semicolon,
    /// `,`
    Comma,
    /// `..`
    DotDot,
    /// `=`
    Equals,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// The end of the input.
    Eof,
}

impl TokenKind<'_> {
    /// How the token reads in an error message ("found `;`").
    pub(crate) fn describe(&self) -> String {
        match self {
            TokenKind::Ident(s) => format!("`{s}`"),
            TokenKind::Int(i) => format!("`{i}`"),
            TokenKind::Float(f) => format!("`{f}`"),
            TokenKind::Str(s) => format!("string {s:?}"),
            TokenKind::Colon => "`:`".into(),
            TokenKind::ColonColon => "`::`".into(),
            TokenKind::Semicolon => "`;`".into(),
            TokenKind::Comma => "`,`".into(),
            TokenKind::DotDot => "`..`".into(),
            TokenKind::Equals => "`=`".into(),
            TokenKind::LParen => "`(`".into(),
            TokenKind::RParen => "`)`".into(),
            TokenKind::LBracket => "`[`".into(),
            TokenKind::RBracket => "`]`".into(),
            TokenKind::LBrace => "`{`".into(),
            TokenKind::RBrace => "`}`".into(),
            TokenKind::Eof => "end of input".into(),
        }
    }
}

/// A token and where it starts.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Token<'a> {
    pub(crate) kind: TokenKind<'a>,
    pub(crate) pos: Pos,
}

/// Splits `src` into tokens, ending with [`TokenKind::Eof`].
#[cfg(test)]
pub(crate) fn tokenize(src: &str) -> Result<Vec<Token<'_>>, ParseError> {
    let mut lexer = Lexer::new(src);
    let mut tokens = Vec::new();
    loop {
        let token = lexer.next_token()?;
        let end = token.kind == TokenKind::Eof;
        tokens.push(token);
        if end {
            return Ok(tokens);
        }
    }
}

/// Reads `src` token by token ([`Lexer::next_token`]).
pub(crate) struct Lexer<'a> {
    text: &'a str,
    src: &'a [u8],
    at: usize,
    pos: Pos,
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `src`.
    pub(crate) fn new(src: &'a str) -> Self {
        Lexer {
            text: src,
            src: src.as_bytes(),
            at: 0,
            pos: Pos::START,
        }
    }

    /// The next token, or [`TokenKind::Eof`] at the end (again at each call).
    pub(crate) fn next_token(&mut self) -> Result<Token<'a>, ParseError> {
        self.skip_trivia()?;
        let pos = self.pos;
        let kind = match self.peek(0) {
            None => TokenKind::Eof,
            Some(c) => self.token(c, pos)?,
        };
        Ok(Token { kind, pos })
    }

    fn peek(&self, ahead: usize) -> Option<u8> {
        self.src.get(self.at + ahead).copied()
    }

    /// Moves over one byte; a column is one character, so the continuation
    /// bytes of a multi-byte character do not count.
    fn bump(&mut self) -> Option<u8> {
        let c = self.peek(0)?;
        self.at += 1;
        if c == b'\n' {
            self.pos.line += 1;
            self.pos.column = 1;
        } else if c & 0xC0 != 0x80 {
            self.pos.column += 1;
        }
        Some(c)
    }

    /// The character at the current byte (the start of one).
    fn char_here(&self) -> Option<char> {
        self.text
            .get(self.at..)
            .and_then(|rest| rest.chars().next())
    }

    /// Moves over the whole character at the current byte and returns it.
    fn bump_char(&mut self) -> Option<char> {
        let c = self.char_here()?;
        for _ in 0..c.len_utf8() {
            self.bump();
        }
        Some(c)
    }

    /// Skips white space, `% line comments` and `/* block comments */`.
    fn skip_trivia(&mut self) -> Result<(), ParseError> {
        loop {
            match (self.peek(0), self.peek(1)) {
                (Some(b' ' | b'\n' | b'\t' | b'\r' | b'\x0B' | b'\x0C'), _) => {
                    self.bump();
                }
                (Some(c), _) if c >= 0x80 && self.char_here().is_some_and(char::is_whitespace) => {
                    self.bump_char();
                }
                (Some(b'%'), _) => {
                    while let Some(c) = self.bump() {
                        if c == b'\n' {
                            break;
                        }
                    }
                }
                (Some(b'/'), Some(b'*')) => {
                    let start = self.pos;
                    self.bump();
                    self.bump();
                    loop {
                        match (self.peek(0), self.peek(1)) {
                            (Some(b'*'), Some(b'/')) => {
                                self.bump();
                                self.bump();
                                break;
                            }
                            (Some(_), _) => {
                                self.bump();
                            }
                            (None, _) => {
                                return Err(ParseError::new(
                                    start,
                                    ParseErrorKind::UnterminatedComment,
                                ));
                            }
                        }
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    fn token(&mut self, c: u8, pos: Pos) -> Result<TokenKind<'a>, ParseError> {
        let single = |lexer: &mut Self, kind| {
            lexer.bump();
            Ok(kind)
        };
        match c {
            b';' => single(self, TokenKind::Semicolon),
            b',' => single(self, TokenKind::Comma),
            b'=' => single(self, TokenKind::Equals),
            b'(' => single(self, TokenKind::LParen),
            b')' => single(self, TokenKind::RParen),
            b'[' => single(self, TokenKind::LBracket),
            b']' => single(self, TokenKind::RBracket),
            b'{' => single(self, TokenKind::LBrace),
            b'}' => single(self, TokenKind::RBrace),
            b':' => {
                self.bump();
                if self.peek(0) == Some(b':') {
                    self.bump();
                    Ok(TokenKind::ColonColon)
                } else {
                    Ok(TokenKind::Colon)
                }
            }
            b'.' if self.peek(1) == Some(b'.') => {
                self.bump();
                self.bump();
                Ok(TokenKind::DotDot)
            }
            b'"' => self.string(pos),
            c if c.is_ascii_alphabetic() || c == b'_' => Ok(TokenKind::Ident(
                self.take_while(|c| c.is_ascii_alphanumeric() || c == b'_'),
            )),
            c if c.is_ascii_digit() => self.number(pos),
            b'-' if self.peek(1).is_some_and(|d| d.is_ascii_digit()) => self.number(pos),
            _ => {
                let other = self.char_here().unwrap_or(char::REPLACEMENT_CHARACTER);
                Err(ParseError::new(pos, ParseErrorKind::UnexpectedChar(other)))
            }
        }
    }

    fn string(&mut self, pos: Pos) -> Result<TokenKind<'a>, ParseError> {
        self.bump();
        let mut text = String::new();
        loop {
            // Up to the next quote, escape or end, copied whole.
            let start = self.at;
            while self.peek(0).is_some_and(|c| c != b'"' && c != b'\\') {
                self.bump();
            }
            text.push_str(&self.text[start..self.at]);
            match self.bump() {
                None => return Err(ParseError::new(pos, ParseErrorKind::UnterminatedString)),
                Some(b'"') => return Ok(TokenKind::Str(text)),
                _ => match self.peek(0) {
                    Some(b'n') => {
                        self.bump();
                        text.push('\n');
                    }
                    Some(b't') => {
                        self.bump();
                        text.push('\t');
                    }
                    Some(_) => {
                        // Any other character stands for itself.
                        text.extend(self.bump_char());
                    }
                    None => {
                        return Err(ParseError::new(pos, ParseErrorKind::UnterminatedString));
                    }
                },
            }
        }
    }

    /// Moves over the bytes that `keep` accepts (ASCII) and returns them.
    fn take_while(&mut self, keep: impl Fn(u8) -> bool) -> &'a str {
        let start = self.at;
        while self.peek(0).is_some_and(&keep) {
            self.at += 1;
        }
        self.pos.column += (self.at - start) as u32;
        &self.text[start..self.at]
    }

    /// Reads an integer (decimal, `0x` hex or `0o` octal) or a float; a leading `-` is part of it.
    fn number(&mut self, pos: Pos) -> Result<TokenKind<'a>, ParseError> {
        let start = self.at;
        let negative = self.peek(0) == Some(b'-');
        if negative {
            self.bump();
        }
        let sign = if negative { "-" } else { "" };
        let radix = match (self.peek(0), self.peek(1)) {
            (Some(b'0'), Some(b'x')) => 16,
            (Some(b'0'), Some(b'o')) => 8,
            _ => 10,
        };
        if radix != 10 {
            self.bump();
            self.bump();
            let digits = self.take_while(|c| (c as char).is_digit(radix));
            let magnitude = if digits.is_empty() {
                None
            } else {
                u128::from_str_radix(digits, radix).ok()
            };
            return signed(magnitude, negative)
                .map(TokenKind::Int)
                .ok_or_else(|| {
                    let prefix = if radix == 16 { "0x" } else { "0o" };
                    ParseError::new(
                        pos,
                        ParseErrorKind::IntegerOutOfRange(format!("{sign}{prefix}{digits}")),
                    )
                });
        }
        let digits = self.take_while(|c| c.is_ascii_digit());
        let mut is_float = false;
        // `1..5` is a range, so a dot makes a float only when a digit follows it.
        if self.peek(0) == Some(b'.') && self.peek(1).is_some_and(|c| c.is_ascii_digit()) {
            is_float = true;
            self.bump();
            self.take_while(|c| c.is_ascii_digit());
        }
        if matches!(self.peek(0), Some(b'e' | b'E')) {
            let sign = matches!(self.peek(1), Some(b'+' | b'-'));
            let digit_at = if sign { 2 } else { 1 };
            if self.peek(digit_at).is_some_and(|c| c.is_ascii_digit()) {
                is_float = true;
                for _ in 0..digit_at {
                    self.bump();
                }
                self.take_while(|c| c.is_ascii_digit());
            }
        }
        let text = &self.text[start..self.at];
        if is_float {
            return text
                .parse::<f64>()
                .ok()
                .filter(|f| f.is_finite())
                .map(TokenKind::Float)
                .ok_or_else(|| ParseError::new(pos, ParseErrorKind::InvalidFloat(text.into())));
        }
        signed(decimal(digits), negative)
            .map(TokenKind::Int)
            .ok_or_else(|| ParseError::new(pos, ParseErrorKind::IntegerOutOfRange(text.into())))
    }
}

/// The value of a run of ASCII digits, or `None` beyond `u128`.
fn decimal(digits: &str) -> Option<u128> {
    if digits.len() <= 18 {
        // Fits an u64 whatever the digits: no overflow check needed.
        Some(u128::from(
            digits
                .bytes()
                .fold(0u64, |n, d| n * 10 + u64::from(d - b'0')),
        ))
    } else {
        digits.parse::<u128>().ok()
    }
}

/// Applies a sign to a magnitude, or `None` when the result does not fit an `i64`.
fn signed(magnitude: Option<u128>, negative: bool) -> Option<i64> {
    let magnitude = i128::try_from(magnitude?).ok()?;
    let value = if negative { -magnitude } else { magnitude };
    i64::try_from(value).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<TokenKind<'_>> {
        tokenize(src).unwrap().into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn range_is_two_ints_around_dotdot() {
        assert_eq!(
            kinds("1..-5"),
            vec![
                TokenKind::Int(1),
                TokenKind::DotDot,
                TokenKind::Int(-5),
                TokenKind::Eof
            ]
        );
    }

    #[test]
    fn reads_floats_with_fraction_or_exponent() {
        assert_eq!(
            kinds("1.5 2e3 -0.25E-1"),
            vec![
                TokenKind::Float(1.5),
                TokenKind::Float(2000.0),
                TokenKind::Float(-0.025),
                TokenKind::Eof
            ]
        );
    }

    #[test]
    fn reads_hex_and_octal_integers() {
        assert_eq!(
            kinds("0x1F 0o17 -0x10"),
            vec![
                TokenKind::Int(31),
                TokenKind::Int(15),
                TokenKind::Int(-16),
                TokenKind::Eof
            ]
        );
    }

    #[test]
    fn extreme_integers_fit_and_beyond_is_an_error() {
        assert_eq!(kinds("-9223372036854775808")[0], TokenKind::Int(i64::MIN));
        assert_eq!(kinds("9223372036854775807")[0], TokenKind::Int(i64::MAX));
        let err = tokenize("\n  9223372036854775808").unwrap_err();
        assert_eq!((err.line(), err.column()), (2, 3));
        assert!(matches!(err.kind(), ParseErrorKind::IntegerOutOfRange(_)));
    }

    #[test]
    fn comments_are_skipped_and_lines_counted() {
        let tokens = tokenize("% a comment\n/* block\n comment */ x :: y").unwrap();
        assert_eq!(tokens[0].kind, TokenKind::Ident("x"));
        assert_eq!(
            tokens[0].pos,
            Pos {
                line: 3,
                column: 13
            }
        );
        assert_eq!(tokens[1].kind, TokenKind::ColonColon);
    }

    #[test]
    fn string_escapes_are_resolved() {
        assert_eq!(
            kinds(r#""a\"b\n""#)[0],
            TokenKind::Str("a\"b\n".to_string())
        );
    }

    #[test]
    fn unterminated_string_and_comment_are_errors_at_their_start() {
        let err = tokenize("x\n \"abc").unwrap_err();
        assert_eq!(err.kind(), &ParseErrorKind::UnterminatedString);
        assert_eq!((err.line(), err.column()), (2, 2));
        let err = tokenize("/* never closed").unwrap_err();
        assert_eq!(err.kind(), &ParseErrorKind::UnterminatedComment);
    }

    #[test]
    fn stray_character_is_named() {
        let err = tokenize("var 1..3: x; @").unwrap_err();
        assert_eq!(err.kind(), &ParseErrorKind::UnexpectedChar('@'));
        assert_eq!(err.column(), 14);
    }
}
