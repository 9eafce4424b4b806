//! Tokenizer for FlatZinc text: turns a source string into tokens that know their line and column.

use crate::error::{ParseError, ParseErrorKind};
use crate::pos::Pos;

/// What a token is; keywords are plain identifiers and the parser tells them apart.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TokenKind {
    /// An identifier or keyword such as `var`, `int_lin_eq` or `X_INTRODUCED_3_`.
    Ident(String),
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

impl TokenKind {
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
pub(crate) struct Token {
    pub(crate) kind: TokenKind,
    pub(crate) pos: Pos,
}

/// Splits `src` into tokens, ending with [`TokenKind::Eof`].
pub(crate) fn tokenize(src: &str) -> Result<Vec<Token>, ParseError> {
    let mut lexer = Lexer {
        chars: src.chars().collect(),
        at: 0,
        pos: Pos::START,
    };
    let mut tokens = Vec::new();
    loop {
        lexer.skip_trivia()?;
        let pos = lexer.pos;
        let Some(c) = lexer.peek(0) else {
            tokens.push(Token {
                kind: TokenKind::Eof,
                pos,
            });
            return Ok(tokens);
        };
        let kind = lexer.token(c, pos)?;
        tokens.push(Token { kind, pos });
    }
}

struct Lexer {
    chars: Vec<char>,
    at: usize,
    pos: Pos,
}

impl Lexer {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.at + ahead).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek(0)?;
        self.at += 1;
        if c == '\n' {
            self.pos.line += 1;
            self.pos.column = 1;
        } else {
            self.pos.column += 1;
        }
        Some(c)
    }

    /// Skips white space, `% line comments` and `/* block comments */`.
    fn skip_trivia(&mut self) -> Result<(), ParseError> {
        loop {
            match (self.peek(0), self.peek(1)) {
                (Some(c), _) if c.is_whitespace() => {
                    self.bump();
                }
                (Some('%'), _) => {
                    while let Some(c) = self.bump() {
                        if c == '\n' {
                            break;
                        }
                    }
                }
                (Some('/'), Some('*')) => {
                    let start = self.pos;
                    self.bump();
                    self.bump();
                    loop {
                        match (self.peek(0), self.peek(1)) {
                            (Some('*'), Some('/')) => {
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

    fn token(&mut self, c: char, pos: Pos) -> Result<TokenKind, ParseError> {
        let single = |lexer: &mut Lexer, kind| {
            lexer.bump();
            Ok(kind)
        };
        match c {
            ';' => single(self, TokenKind::Semicolon),
            ',' => single(self, TokenKind::Comma),
            '=' => single(self, TokenKind::Equals),
            '(' => single(self, TokenKind::LParen),
            ')' => single(self, TokenKind::RParen),
            '[' => single(self, TokenKind::LBracket),
            ']' => single(self, TokenKind::RBracket),
            '{' => single(self, TokenKind::LBrace),
            '}' => single(self, TokenKind::RBrace),
            ':' => {
                self.bump();
                if self.peek(0) == Some(':') {
                    self.bump();
                    Ok(TokenKind::ColonColon)
                } else {
                    Ok(TokenKind::Colon)
                }
            }
            '.' if self.peek(1) == Some('.') => {
                self.bump();
                self.bump();
                Ok(TokenKind::DotDot)
            }
            '"' => self.string(pos),
            c if c.is_ascii_alphabetic() || c == '_' => {
                let mut name = String::new();
                while let Some(c) = self.peek(0) {
                    if c.is_ascii_alphanumeric() || c == '_' {
                        name.push(c);
                        self.bump();
                    } else {
                        break;
                    }
                }
                Ok(TokenKind::Ident(name))
            }
            c if c.is_ascii_digit() => self.number(pos),
            '-' if self.peek(1).is_some_and(|d| d.is_ascii_digit()) => self.number(pos),
            other => Err(ParseError::new(pos, ParseErrorKind::UnexpectedChar(other))),
        }
    }

    fn string(&mut self, pos: Pos) -> Result<TokenKind, ParseError> {
        self.bump();
        let mut text = String::new();
        loop {
            match self.bump() {
                None => return Err(ParseError::new(pos, ParseErrorKind::UnterminatedString)),
                Some('"') => return Ok(TokenKind::Str(text)),
                Some('\\') => match self.bump() {
                    Some('n') => text.push('\n'),
                    Some('t') => text.push('\t'),
                    Some(other) => text.push(other),
                    None => {
                        return Err(ParseError::new(pos, ParseErrorKind::UnterminatedString));
                    }
                },
                Some(c) => text.push(c),
            }
        }
    }

    /// Reads an integer (decimal, `0x` hex or `0o` octal) or a float; a leading `-` is part of it.
    fn number(&mut self, pos: Pos) -> Result<TokenKind, ParseError> {
        let mut text = String::new();
        if self.peek(0) == Some('-') {
            text.push('-');
            self.bump();
        }
        let negative = !text.is_empty();
        let radix = match (self.peek(0), self.peek(1)) {
            (Some('0'), Some('x')) => 16,
            (Some('0'), Some('o')) => 8,
            _ => 10,
        };
        if radix != 10 {
            self.bump();
            self.bump();
            let digits = self.take_while(|c| c.is_digit(radix));
            let magnitude = if digits.is_empty() {
                None
            } else {
                u128::from_str_radix(&digits, radix).ok()
            };
            return signed(magnitude, negative)
                .map(TokenKind::Int)
                .ok_or_else(|| {
                    let prefix = if radix == 16 { "0x" } else { "0o" };
                    ParseError::new(
                        pos,
                        ParseErrorKind::IntegerOutOfRange(format!("{text}{prefix}{digits}")),
                    )
                });
        }
        text.push_str(&self.take_while(|c| c.is_ascii_digit()));
        let mut is_float = false;
        // `1..5` is a range, so a dot makes a float only when a digit follows it.
        if self.peek(0) == Some('.') && self.peek(1).is_some_and(|c| c.is_ascii_digit()) {
            is_float = true;
            text.push('.');
            self.bump();
            text.push_str(&self.take_while(|c| c.is_ascii_digit()));
        }
        if matches!(self.peek(0), Some('e' | 'E')) {
            let sign = matches!(self.peek(1), Some('+' | '-'));
            let digit_at = if sign { 2 } else { 1 };
            if self.peek(digit_at).is_some_and(|c| c.is_ascii_digit()) {
                is_float = true;
                for _ in 0..digit_at {
                    text.extend(self.bump());
                }
                text.push_str(&self.take_while(|c| c.is_ascii_digit()));
            }
        }
        if is_float {
            return text
                .parse::<f64>()
                .ok()
                .filter(|f| f.is_finite())
                .map(TokenKind::Float)
                .ok_or_else(|| ParseError::new(pos, ParseErrorKind::InvalidFloat(text)));
        }
        let digits = text.trim_start_matches('-');
        signed(digits.parse::<u128>().ok(), negative)
            .map(TokenKind::Int)
            .ok_or_else(|| ParseError::new(pos, ParseErrorKind::IntegerOutOfRange(text)))
    }

    fn take_while(&mut self, keep: impl Fn(char) -> bool) -> String {
        let mut out = String::new();
        while let Some(c) = self.peek(0) {
            if !keep(c) {
                break;
            }
            out.push(c);
            self.bump();
        }
        out
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

    fn kinds(src: &str) -> Vec<TokenKind> {
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
        assert_eq!(tokens[0].kind, TokenKind::Ident("x".into()));
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
