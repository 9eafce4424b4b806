//! The parser's token-level steps: the lookahead, reading the next token,
//! and the checks and errors every rule uses.

use super::Parser;
use crate::error::{ParseError, ParseErrorKind};
use crate::lexer::{Token, TokenKind};
use crate::pos::Pos;

impl<'a> Parser<'a> {
    pub(super) fn peek(&self) -> &Token<'a> {
        &self.current
    }

    /// Reads the next token into `current`; after a lexing error, the end.
    pub(super) fn advance(&mut self) {
        if self.lex_error.is_some() {
            return;
        }
        match self.lexer.next_token() {
            Ok(token) => self.current = token,
            Err(error) => {
                self.current = Token {
                    kind: TokenKind::Eof,
                    pos: error.pos(),
                };
                self.lex_error = Some(error);
            }
        }
    }

    pub(super) fn bump(&mut self) -> Token<'a> {
        let token = self.current.clone();
        if token.kind != TokenKind::Eof {
            self.advance();
        }
        token
    }

    pub(super) fn at(&self, kind: &TokenKind<'_>) -> bool {
        &self.peek().kind == kind
    }

    pub(super) fn at_keyword(&self, keyword: &str) -> bool {
        matches!(&self.peek().kind, TokenKind::Ident(s) if *s == keyword)
    }

    /// An "expected ..., found ..." error at the next token.
    pub(super) fn unexpected(&self, expected: &str) -> ParseError {
        let token = self.peek();
        ParseError::new(
            token.pos,
            ParseErrorKind::Expected {
                expected: expected.to_string(),
                found: token.kind.describe(),
            },
        )
    }

    pub(super) fn expect(&mut self, kind: TokenKind<'_>) -> Result<Pos, ParseError> {
        if self.at(&kind) {
            Ok(self.bump().pos)
        } else {
            Err(self.unexpected(&kind.describe()))
        }
    }

    pub(super) fn expect_keyword(&mut self, keyword: &str) -> Result<Pos, ParseError> {
        if self.at_keyword(keyword) {
            Ok(self.bump().pos)
        } else {
            Err(self.unexpected(&format!("`{keyword}`")))
        }
    }

    pub(super) fn ident(&mut self, what: &str) -> Result<(String, Pos), ParseError> {
        match &self.peek().kind {
            TokenKind::Ident(name) => {
                let name = name.to_string();
                Ok((name, self.bump().pos))
            }
            _ => Err(self.unexpected(what)),
        }
    }

    pub(super) fn int(&mut self) -> Result<i64, ParseError> {
        match self.peek().kind {
            TokenKind::Int(value) => {
                self.bump();
                Ok(value)
            }
            _ => Err(self.unexpected("an integer")),
        }
    }

    /// Parses `item (sep item)*` up to and including `close`; `open` was already read.
    pub(super) fn list<T>(
        &mut self,
        close: TokenKind<'_>,
        mut item: impl FnMut(&mut Self) -> Result<T, ParseError>,
    ) -> Result<Vec<T>, ParseError> {
        let mut items = Vec::new();
        if self.at(&close) {
            self.bump();
            return Ok(items);
        }
        loop {
            items.push(item(self)?);
            if self.at(&TokenKind::Comma) {
                self.bump();
                // A trailing comma before the closing bracket is tolerated.
                if self.at(&close) {
                    self.bump();
                    return Ok(items);
                }
            } else {
                self.expect(close)?;
                return Ok(items);
            }
        }
    }
}
