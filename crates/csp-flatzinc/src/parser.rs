//! Recursive-descent parser from FlatZinc tokens to the [`ast`](crate::ast) syntax tree.
//!
//! The grammar is the FlatZinc 2 one (MiniZinc handbook, "FlatZinc specification"),
//! a little more liberal where that costs nothing: items may come in any order,
//! parameters may carry annotations, `x[i]` array accesses (FlatZinc 1) are read,
//! and an array of variables may omit its literal. Every error carries the line and
//! column of the token that broke the grammar, and no input makes the parser panic:
//! nesting is bounded by [`MAX_DEPTH`] so deep inputs cannot exhaust the stack.

use crate::ast::{
    Annotation, BasicParType, ConstraintItem, Decl, Expr, Goal, Model, ParDecl, ParType,
    PredicateDecl, SetLit, SolveItem, VarArrayDecl, VarDecl, VarType,
};
use crate::error::{ParseError, ParseErrorKind};
use crate::lexer::{Lexer, Token, TokenKind};
use crate::pos::Pos;

mod tokens;

/// How deep expressions and annotations may nest (`seq_search([seq_search([...])])`).
pub const MAX_DEPTH: usize = 64;

/// Parses a FlatZinc file into its syntax tree.
///
/// Never panics: malformed input gives a [`ParseError`] with the line and column.
///
/// ```
/// let model = csp_flatzinc::parse(
///     "array [1..2] of var 1..2: q :: output_array([1..2]);\n\
///      constraint int_ne(q[1], q[2]);\n\
///      solve :: int_search(q, input_order, indomain_min, complete) satisfy;",
/// )
/// .unwrap();
/// assert_eq!(model.constraints[0].args.len(), 2);
/// assert_eq!(model.solve.annotations[0].name, "int_search");
///
/// let err = csp_flatzinc::parse("var 1..: x;\nsolve satisfy;").unwrap_err();
/// assert_eq!((err.line(), err.column()), (1, 8));
/// ```
pub fn parse(src: &str) -> Result<Model, ParseError> {
    let mut parser = Parser {
        lexer: Lexer::new(src),
        current: Token {
            kind: TokenKind::Eof,
            pos: Pos::START,
        },
        depth: 0,
        lex_error: None,
    };
    parser.advance();
    let model = parser.model();
    // A token that could not be read ends the input where it starts; the
    // error is then that token's, whatever the parser made of the end.
    match parser.lex_error {
        Some(error) => Err(error),
        None => model,
    }
}

/// Where an expression stands, which decides what it may be.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    /// A constraint argument or a declared value: literals, names and one level of array.
    Value,
    /// An element of an array literal: no nested arrays.
    Element,
    /// An annotation argument: also strings, calls and nested arrays.
    Annotation,
}

/// Reads the tokens one at a time from the lexer, with one token of lookahead.
struct Parser<'a> {
    lexer: Lexer<'a>,
    /// The next token ([`TokenKind::Eof`] at the end, and from a token that
    /// could not be read on).
    current: Token<'a>,
    depth: usize,
    /// The error of a token that could not be read.
    lex_error: Option<ParseError>,
}

impl<'a> Parser<'a> {
    fn model(&mut self) -> Result<Model, ParseError> {
        let mut predicates = Vec::new();
        let mut decls = Vec::new();
        let mut constraints = Vec::new();
        let mut solve: Option<SolveItem> = None;
        loop {
            let token = self.peek().clone();
            let keyword = match &token.kind {
                TokenKind::Eof => break,
                TokenKind::Ident(keyword) => *keyword,
                _ => return Err(self.unexpected("an item")),
            };
            match keyword {
                "predicate" => predicates.push(self.predicate()?),
                "constraint" => constraints.push(self.constraint()?),
                "solve" => {
                    if solve.is_some() {
                        return Err(ParseError::new(token.pos, ParseErrorKind::DuplicateSolve));
                    }
                    solve = Some(self.solve()?);
                }
                "var" => decls.push(Decl::Var(self.var_decl()?)),
                "array" => decls.push(self.array_decl()?),
                "bool" | "int" | "float" | "set" => decls.push(Decl::Par(self.par_decl()?)),
                _ => return Err(self.unexpected("an item")),
            }
        }
        let solve =
            solve.ok_or_else(|| ParseError::new(self.peek().pos, ParseErrorKind::MissingSolve))?;
        Ok(Model {
            predicates,
            decls,
            constraints,
            solve,
        })
    }

    /// `predicate name(params);` with the parameters skipped, counting them.
    fn predicate(&mut self) -> Result<PredicateDecl, ParseError> {
        self.expect_keyword("predicate")?;
        let (name, pos) = self.ident("a predicate name")?;
        self.expect(TokenKind::LParen)?;
        let mut depth = 1usize;
        let mut commas = 0;
        let mut empty = true;
        loop {
            match self.peek().kind {
                TokenKind::Eof => return Err(self.unexpected("`)`")),
                TokenKind::LParen | TokenKind::LBracket | TokenKind::LBrace => depth += 1,
                TokenKind::RParen | TokenKind::RBracket | TokenKind::RBrace => depth -= 1,
                TokenKind::Comma if depth == 1 => commas += 1,
                _ => {}
            }
            self.bump();
            if depth == 0 {
                break;
            }
            empty = false;
        }
        self.expect(TokenKind::Semicolon)?;
        let arity = if empty { 0 } else { commas + 1 };
        Ok(PredicateDecl { name, arity, pos })
    }

    fn par_decl(&mut self) -> Result<ParDecl, ParseError> {
        let element = self.basic_par_type()?;
        self.par_decl_rest(ParType::Basic(element))
    }

    /// `: name annotations = value;` after a parameter type.
    fn par_decl_rest(&mut self, ty: ParType) -> Result<ParDecl, ParseError> {
        self.expect(TokenKind::Colon)?;
        let (name, pos) = self.ident("a parameter name")?;
        let annotations = self.annotations()?;
        self.expect(TokenKind::Equals)?;
        let value = match ty {
            ParType::Array { len, .. } => {
                let items = self.array_literal(&name, len)?;
                Expr::Array(items)
            }
            ParType::Basic(_) => self.expr(Context::Element)?,
        };
        self.expect(TokenKind::Semicolon)?;
        Ok(ParDecl {
            name,
            ty,
            value,
            annotations,
            pos,
        })
    }

    fn basic_par_type(&mut self) -> Result<BasicParType, ParseError> {
        let ty = if self.at_keyword("bool") {
            BasicParType::Bool
        } else if self.at_keyword("int") {
            BasicParType::Int
        } else if self.at_keyword("float") {
            BasicParType::Float
        } else if self.at_keyword("set") {
            self.bump();
            self.expect_keyword("of")?;
            self.expect_keyword("int")?;
            return Ok(BasicParType::SetOfInt);
        } else {
            return Err(self.unexpected("a parameter type"));
        };
        self.bump();
        Ok(ty)
    }

    fn var_decl(&mut self) -> Result<VarDecl, ParseError> {
        self.expect_keyword("var")?;
        let ty = self.var_type()?;
        self.expect(TokenKind::Colon)?;
        let (name, pos) = self.ident("a variable name")?;
        let annotations = self.annotations()?;
        let value = if self.at(&TokenKind::Equals) {
            self.bump();
            Some(self.expr(Context::Element)?)
        } else {
            None
        };
        self.expect(TokenKind::Semicolon)?;
        Ok(VarDecl {
            name,
            ty,
            annotations,
            value,
            pos,
        })
    }

    /// The type after `var`: `bool`, `int`, `float`, `lo..hi`, `{a, b}` or `set of ...`.
    fn var_type(&mut self) -> Result<VarType, ParseError> {
        let token = self.peek().clone();
        match token.kind {
            TokenKind::Ident(keyword) => match keyword {
                "bool" | "int" | "float" => {
                    self.bump();
                    Ok(match keyword {
                        "bool" => VarType::Bool,
                        "int" => VarType::Int,
                        _ => VarType::Float,
                    })
                }
                "set" => {
                    self.bump();
                    self.expect_keyword("of")?;
                    if self.at_keyword("int") {
                        self.bump();
                        return Ok(VarType::SetOfInt(None));
                    }
                    match self.expr(Context::Element)? {
                        Expr::Set(set @ (SetLit::IntRange(..) | SetLit::Ints(_))) => {
                            Ok(VarType::SetOfInt(Some(set)))
                        }
                        _ => Err(ParseError::new(
                            token.pos,
                            ParseErrorKind::Expected {
                                expected: "an integer set".into(),
                                found: "something else".into(),
                            },
                        )),
                    }
                }
                _ => Err(self.unexpected("a variable type")),
            },
            TokenKind::Int(_) | TokenKind::Float(_) | TokenKind::LBrace => {
                match self.expr(Context::Element)? {
                    Expr::Set(SetLit::IntRange(lo, hi)) => Ok(VarType::IntRange(lo, hi)),
                    Expr::Set(SetLit::Ints(values)) => Ok(VarType::IntSet(values)),
                    Expr::Set(SetLit::FloatRange(lo, hi)) => Ok(VarType::FloatRange(lo, hi)),
                    _ => Err(ParseError::new(
                        token.pos,
                        ParseErrorKind::Expected {
                            expected: "a domain such as `1..9` or `{1, 3}`".into(),
                            found: token.kind.describe(),
                        },
                    )),
                }
            }
            _ => Err(self.unexpected("a variable type")),
        }
    }

    /// `array [1..n] of type: name annotations = [...];`, of parameters or of variables.
    fn array_decl(&mut self) -> Result<Decl, ParseError> {
        self.expect_keyword("array")?;
        self.expect(TokenKind::LBracket)?;
        let index_pos = self.peek().pos;
        let lo = self.int()?;
        self.expect(TokenKind::DotDot)?;
        let hi = self.int()?;
        self.expect(TokenKind::RBracket)?;
        let len = if lo == 1 {
            usize::try_from(hi).ok()
        } else {
            None
        };
        let len = len.ok_or_else(|| {
            ParseError::new(
                index_pos,
                ParseErrorKind::BadIndexSet(format!("{lo}..{hi}")),
            )
        })?;
        self.expect_keyword("of")?;
        if !self.at_keyword("var") {
            let element = self.basic_par_type()?;
            return Ok(Decl::Par(
                self.par_decl_rest(ParType::Array { len, element })?,
            ));
        }
        self.bump();
        let element = self.var_type()?;
        self.expect(TokenKind::Colon)?;
        let (name, pos) = self.ident("an array name")?;
        let annotations = self.annotations()?;
        let value = if self.at(&TokenKind::Equals) {
            self.bump();
            Some(self.array_literal(&name, len)?)
        } else {
            None
        };
        self.expect(TokenKind::Semicolon)?;
        Ok(Decl::VarArray(VarArrayDecl {
            name,
            len,
            element,
            annotations,
            value,
            pos,
        }))
    }

    /// `[e1, ..., en]` whose length must be the declared `len`.
    fn array_literal(&mut self, name: &str, len: usize) -> Result<Vec<Expr>, ParseError> {
        let pos = self.expect(TokenKind::LBracket)?;
        let items = self.list(TokenKind::RBracket, |p| p.expr(Context::Element))?;
        if items.len() != len {
            return Err(ParseError::new(
                pos,
                ParseErrorKind::ArrayLength {
                    name: name.to_string(),
                    declared: len,
                    given: items.len(),
                },
            ));
        }
        Ok(items)
    }

    fn constraint(&mut self) -> Result<ConstraintItem, ParseError> {
        self.expect_keyword("constraint")?;
        let (name, pos) = self.ident("a constraint name")?;
        self.expect(TokenKind::LParen)?;
        let args = self.list(TokenKind::RParen, |p| p.expr(Context::Value))?;
        let annotations = self.annotations()?;
        self.expect(TokenKind::Semicolon)?;
        Ok(ConstraintItem {
            name,
            args,
            annotations,
            pos,
        })
    }

    fn solve(&mut self) -> Result<SolveItem, ParseError> {
        let pos = self.expect_keyword("solve")?;
        let annotations = self.annotations()?;
        let goal = if self.at_keyword("satisfy") {
            self.bump();
            Goal::Satisfy
        } else if self.at_keyword("minimize") {
            self.bump();
            Goal::Minimize(self.expr(Context::Element)?)
        } else if self.at_keyword("maximize") {
            self.bump();
            Goal::Maximize(self.expr(Context::Element)?)
        } else {
            return Err(self.unexpected("`satisfy`, `minimize` or `maximize`"));
        };
        self.expect(TokenKind::Semicolon)?;
        Ok(SolveItem {
            goal,
            annotations,
            pos,
        })
    }

    /// Zero or more `:: annotation`.
    fn annotations(&mut self) -> Result<Vec<Annotation>, ParseError> {
        let mut annotations = Vec::new();
        while self.at(&TokenKind::ColonColon) {
            self.bump();
            annotations.push(self.annotation()?);
        }
        Ok(annotations)
    }

    /// `name` or `name(args)`.
    fn annotation(&mut self) -> Result<Annotation, ParseError> {
        let (name, pos) = self.ident("an annotation name")?;
        self.annotation_args(name, pos)
    }

    /// The optional `(args)` of an annotation whose name was just read.
    fn annotation_args(&mut self, name: String, pos: Pos) -> Result<Annotation, ParseError> {
        let args = if self.at(&TokenKind::LParen) {
            self.bump();
            self.nested(|p| p.list(TokenKind::RParen, |p| p.expr(Context::Annotation)))?
        } else {
            Vec::new()
        };
        Ok(Annotation { name, args, pos })
    }

    /// Runs `inner` one nesting level deeper, failing beyond [`MAX_DEPTH`].
    fn nested<T>(
        &mut self,
        inner: impl FnOnce(&mut Self) -> Result<T, ParseError>,
    ) -> Result<T, ParseError> {
        if self.depth >= MAX_DEPTH {
            return Err(ParseError::new(
                self.peek().pos,
                ParseErrorKind::TooDeep(MAX_DEPTH),
            ));
        }
        self.depth += 1;
        let result = inner(self);
        self.depth -= 1;
        result
    }

    fn expr(&mut self, context: Context) -> Result<Expr, ParseError> {
        let token = self.peek().clone();
        match token.kind {
            TokenKind::Ident(name) => {
                self.bump();
                match name {
                    "true" => return Ok(Expr::Bool(true)),
                    "false" => return Ok(Expr::Bool(false)),
                    _ => {}
                }
                let name = name.to_string();
                if context == Context::Annotation && self.at(&TokenKind::LParen) {
                    return Ok(Expr::Annotation(self.annotation_args(name, token.pos)?));
                }
                if context != Context::Annotation && self.at(&TokenKind::LBracket) {
                    self.bump();
                    let index = self.int()?;
                    self.expect(TokenKind::RBracket)?;
                    return Ok(Expr::ArrayAccess { name, index });
                }
                Ok(Expr::Ident(name))
            }
            TokenKind::Int(lo) => {
                self.bump();
                if self.at(&TokenKind::DotDot) {
                    self.bump();
                    let hi = self.int()?;
                    return Ok(Expr::Set(SetLit::IntRange(lo, hi)));
                }
                Ok(Expr::Int(lo))
            }
            TokenKind::Float(lo) => {
                self.bump();
                if self.at(&TokenKind::DotDot) {
                    self.bump();
                    let hi = self.float()?;
                    return Ok(Expr::Set(SetLit::FloatRange(lo, hi)));
                }
                Ok(Expr::Float(lo))
            }
            TokenKind::LBrace => {
                self.bump();
                self.set_literal()
            }
            TokenKind::LBracket if context != Context::Element => {
                self.bump();
                let inner = match context {
                    Context::Annotation => Context::Annotation,
                    _ => Context::Element,
                };
                let items = self.nested(|p| p.list(TokenKind::RBracket, |p| p.expr(inner)))?;
                Ok(Expr::Array(items))
            }
            TokenKind::Str(text) if context == Context::Annotation => {
                self.bump();
                Ok(Expr::Str(text))
            }
            _ => Err(self.unexpected("an expression")),
        }
    }

    /// A float, or an integer read as a float (`1.0..2`).
    fn float(&mut self) -> Result<f64, ParseError> {
        match self.peek().kind {
            TokenKind::Float(value) => {
                self.bump();
                Ok(value)
            }
            TokenKind::Int(value) => {
                self.bump();
                Ok(value as f64)
            }
            _ => Err(self.unexpected("a float")),
        }
    }

    /// The rest of `{a, b, c}` after `{`: all integers or all floats.
    fn set_literal(&mut self) -> Result<Expr, ParseError> {
        let floats = matches!(self.peek().kind, TokenKind::Float(_));
        if floats {
            let mut values = self.list(TokenKind::RBrace, Self::float)?;
            values.sort_by(f64::total_cmp);
            values.dedup();
            Ok(Expr::Set(SetLit::Floats(values)))
        } else {
            let mut values = self.list(TokenKind::RBrace, Self::int)?;
            values.sort_unstable();
            values.dedup();
            Ok(Expr::Set(SetLit::Ints(values)))
        }
    }
}
