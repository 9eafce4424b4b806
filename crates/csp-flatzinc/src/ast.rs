//! The FlatZinc syntax tree: declarations, constraints, the solve item and annotations, as written.

use crate::pos::Pos;

/// A whole FlatZinc file.
///
/// Declarations keep their order in the file, because a declaration may refer to
/// the ones before it (an array of variables lists variables declared earlier).
///
/// ```
/// use csp_flatzinc::ast::{Decl, Goal};
///
/// let model = csp_flatzinc::parse(
///     "var 1..3: x :: output_var;\nconstraint int_ne(x, 2);\nsolve maximize x;",
/// )
/// .unwrap();
/// assert_eq!(model.decls.len(), 1);
/// assert!(matches!(&model.decls[0], Decl::Var(v) if v.name == "x"));
/// assert_eq!(model.constraints[0].name, "int_ne");
/// assert!(matches!(model.solve.goal, Goal::Maximize(_)));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// `predicate` items: the solver-native predicates the file declares.
    pub predicates: Vec<PredicateDecl>,
    /// Parameter, variable and variable-array declarations, in file order.
    pub decls: Vec<Decl>,
    /// `constraint` items, in file order.
    pub constraints: Vec<ConstraintItem>,
    /// The one `solve` item.
    pub solve: SolveItem,
}

/// A `predicate name(...);` item. Its parameters are not kept: the translation knows
/// the native predicates it supports by name.
#[derive(Debug, Clone, PartialEq)]
pub struct PredicateDecl {
    /// The predicate's name.
    pub name: String,
    /// How many parameters it declares.
    pub arity: usize,
    /// Where its name is.
    pub pos: Pos,
}

/// One declaration.
#[derive(Debug, Clone, PartialEq)]
pub enum Decl {
    /// A parameter: `int: n = 3;`, `array [1..2] of int: a = [1, 2];`.
    Par(ParDecl),
    /// A variable: `var 1..9: x :: output_var;`.
    Var(VarDecl),
    /// An array of variables: `array [1..2] of var int: xs = [x, y];`.
    VarArray(VarArrayDecl),
}

impl Decl {
    /// The declared name.
    pub fn name(&self) -> &str {
        match self {
            Decl::Par(d) => &d.name,
            Decl::Var(d) => &d.name,
            Decl::VarArray(d) => &d.name,
        }
    }

    /// Where the declared name is.
    pub fn pos(&self) -> Pos {
        match self {
            Decl::Par(d) => d.pos,
            Decl::Var(d) => d.pos,
            Decl::VarArray(d) => d.pos,
        }
    }
}

/// A parameter declaration: a name bound to a fixed value.
#[derive(Debug, Clone, PartialEq)]
pub struct ParDecl {
    /// The parameter's name.
    pub name: String,
    /// Its type.
    pub ty: ParType,
    /// Its value.
    pub value: Expr,
    /// Annotations after the name (FlatZinc allows none, but some writers add them).
    pub annotations: Vec<Annotation>,
    /// Where its name is.
    pub pos: Pos,
}

/// The type of a parameter.
#[derive(Debug, Clone, PartialEq)]
pub enum ParType {
    /// `bool`, `int`, `float` or `set of int`.
    Basic(BasicParType),
    /// `array [1..len] of` a basic type.
    Array {
        /// The number of elements.
        len: usize,
        /// The element type.
        element: BasicParType,
    },
}

/// The type of a scalar parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BasicParType {
    /// `bool`
    Bool,
    /// `int`
    Int,
    /// `float`
    Float,
    /// `set of int`
    SetOfInt,
}

/// A variable declaration, optionally bound to a value or to another variable.
#[derive(Debug, Clone, PartialEq)]
pub struct VarDecl {
    /// The variable's name.
    pub name: String,
    /// Its type and domain.
    pub ty: VarType,
    /// Its annotations (`output_var`, `is_defined_var`, ...).
    pub annotations: Vec<Annotation>,
    /// `= value` if present: a constant, or another variable it is an alias of.
    pub value: Option<Expr>,
    /// Where its name is.
    pub pos: Pos,
}

/// A declaration of an array of variables.
#[derive(Debug, Clone, PartialEq)]
pub struct VarArrayDecl {
    /// The array's name.
    pub name: String,
    /// The number of elements (the index set is `1..len`).
    pub len: usize,
    /// The type of each element.
    pub element: VarType,
    /// Its annotations (`output_array([1..2, 1..3])`, ...).
    pub annotations: Vec<Annotation>,
    /// The elements, each a variable name or a constant; `None` declares `len` fresh variables.
    pub value: Option<Vec<Expr>>,
    /// Where its name is.
    pub pos: Pos,
}

/// The type and domain of a variable.
#[derive(Debug, Clone, PartialEq)]
pub enum VarType {
    /// `var bool`
    Bool,
    /// `var int`, unbounded.
    Int,
    /// `var lo..hi`
    IntRange(i64, i64),
    /// `var {a, b, c}`, sorted and without duplicates.
    IntSet(Vec<i64>),
    /// `var float`
    Float,
    /// `var lo..hi` with float bounds.
    FloatRange(f64, f64),
    /// `var set of ...`, with the universe if one is given.
    SetOfInt(Option<SetLit>),
}

/// A set literal.
#[derive(Debug, Clone, PartialEq)]
pub enum SetLit {
    /// `lo..hi`
    IntRange(i64, i64),
    /// `{a, b, c}`, sorted and without duplicates.
    Ints(Vec<i64>),
    /// `lo..hi` with float bounds.
    FloatRange(f64, f64),
    /// `{1.0, 2.5}`
    Floats(Vec<f64>),
}

impl SetLit {
    /// Whether the set holds integer `value`; float sets hold no integer.
    ///
    /// ```
    /// use csp_flatzinc::ast::SetLit;
    /// assert!(SetLit::IntRange(1, 3).contains(2));
    /// assert!(!SetLit::Ints(vec![1, 3]).contains(2));
    /// ```
    pub fn contains(&self, value: i64) -> bool {
        match self {
            SetLit::IntRange(lo, hi) => (*lo..=*hi).contains(&value),
            SetLit::Ints(values) => values.binary_search(&value).is_ok(),
            SetLit::FloatRange(..) | SetLit::Floats(_) => false,
        }
    }
}

/// An expression: an argument, a value, or an annotation argument.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// `true` or `false`
    Bool(bool),
    /// An integer literal.
    Int(i64),
    /// A float literal.
    Float(f64),
    /// A set literal.
    Set(SetLit),
    /// A parameter or variable name, or an annotation atom such as `first_fail`.
    Ident(String),
    /// `name[index]`, an element of a declared array (FlatZinc 1 style).
    ArrayAccess {
        /// The array's name.
        name: String,
        /// The 1-based index.
        index: i64,
    },
    /// `[e1, e2, ...]`
    Array(Vec<Expr>),
    /// A string literal (only in annotations).
    Str(String),
    /// A nested annotation call such as `int_search(...)` (only in annotations).
    Annotation(Annotation),
}

/// A `constraint name(args) :: annotations;` item.
#[derive(Debug, Clone, PartialEq)]
pub struct ConstraintItem {
    /// The builtin or native predicate it calls.
    pub name: String,
    /// Its arguments.
    pub args: Vec<Expr>,
    /// Its annotations (`defines_var(x)`, `domain`, ...).
    pub annotations: Vec<Annotation>,
    /// Where its name is.
    pub pos: Pos,
}

/// The `solve` item.
#[derive(Debug, Clone, PartialEq)]
pub struct SolveItem {
    /// What to look for.
    pub goal: Goal,
    /// Its annotations, usually search strategies.
    pub annotations: Vec<Annotation>,
    /// Where the `solve` keyword is.
    pub pos: Pos,
}

/// What the solve item asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Goal {
    /// `solve satisfy;`
    Satisfy,
    /// `solve minimize expr;`
    Minimize(Expr),
    /// `solve maximize expr;`
    Maximize(Expr),
}

/// An annotation: `:: name` or `:: name(args)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Annotation {
    /// The annotation's name.
    pub name: String,
    /// Its arguments, empty for `:: name`.
    pub args: Vec<Expr>,
    /// Where its name is.
    pub pos: Pos,
}

impl Annotation {
    /// Whether a list of annotations holds one called `name`.
    ///
    /// ```
    /// let model = csp_flatzinc::parse("var bool: b :: output_var;\nsolve satisfy;").unwrap();
    /// let csp_flatzinc::ast::Decl::Var(b) = &model.decls[0] else { panic!() };
    /// assert!(csp_flatzinc::ast::Annotation::find(&b.annotations, "output_var").is_some());
    /// ```
    pub fn find<'a>(annotations: &'a [Annotation], name: &str) -> Option<&'a Annotation> {
        annotations.iter().find(|a| a.name == name)
    }
}

/// FlatZinc text, as MiniZinc writes it (no spaces after commas), so that a
/// constraint printed by `fzn-csp --explain` can be found in its file.
impl std::fmt::Display for Expr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        fn list<T: std::fmt::Display>(
            f: &mut std::fmt::Formatter<'_>,
            items: &[T],
        ) -> std::fmt::Result {
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{item}")?;
            }
            Ok(())
        }
        match self {
            Expr::Bool(b) => write!(f, "{b}"),
            Expr::Int(v) => write!(f, "{v}"),
            Expr::Float(x) => write!(f, "{x:?}"),
            Expr::Set(SetLit::IntRange(lo, hi)) => write!(f, "{lo}..{hi}"),
            Expr::Set(SetLit::FloatRange(lo, hi)) => write!(f, "{lo:?}..{hi:?}"),
            Expr::Set(SetLit::Ints(values)) => {
                f.write_str("{")?;
                list(f, values)?;
                f.write_str("}")
            }
            Expr::Set(SetLit::Floats(values)) => {
                let shown: Vec<String> = values.iter().map(|x| format!("{x:?}")).collect();
                write!(f, "{{{}}}", shown.join(","))
            }
            Expr::Ident(name) => f.write_str(name),
            Expr::ArrayAccess { name, index } => write!(f, "{name}[{index}]"),
            Expr::Array(items) => {
                f.write_str("[")?;
                list(f, items)?;
                f.write_str("]")
            }
            Expr::Str(s) => write!(f, "{s:?}"),
            Expr::Annotation(a) => write!(f, "{a}"),
        }
    }
}

/// `name` or `name(args)`.
impl std::fmt::Display for Annotation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name)?;
        if self.args.is_empty() {
            return Ok(());
        }
        f.write_str("(")?;
        for (i, arg) in self.args.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{arg}")?;
        }
        f.write_str(")")
    }
}

/// The call, `name(arg,arg)`, without its annotations.
///
/// ```
/// let m = csp_flatzinc::parse(
///     "var 1..9: x;\nconstraint int_lin_le([1,-1],[x,x],-1) :: domain;\nsolve satisfy;",
/// )?;
/// assert_eq!(m.constraints[0].to_string(), "int_lin_le([1,-1],[x,x],-1)");
/// # Ok::<(), csp_flatzinc::ParseError>(())
/// ```
impl std::fmt::Display for ConstraintItem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}(", self.name)?;
        for (i, arg) in self.args.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{arg}")?;
        }
        f.write_str(")")
    }
}
