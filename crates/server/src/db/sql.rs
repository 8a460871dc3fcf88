//! A statement that runs on either database, written once: `query` / `query_as` with
//! `bind`s and one of `execute`, `fetch_one`, `fetch_optional` or `fetch_all` on a [`Tx`],
//! as sqlx spells them. Placeholders are SQLite's (`?`, `?N`); on Postgres they become
//! `$N`. What a value binds as is one of four kinds (text, integer, real, NULL of one of
//! them), so the same statement types its parameters alike on both; a `bool` binds as the
//! integer 0 or 1, as the schema's flags are stored on both.

use super::{Conn, Tx};
use sqlx::postgres::{PgArguments, PgRow};
use sqlx::sqlite::{SqliteArguments, SqliteRow};
use sqlx::{Arguments, FromRow, Postgres, Sqlite};
use std::borrow::Cow;
use std::marker::PhantomData;

/// A bound value.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg<'q> {
    Text(Option<Cow<'q, str>>),
    Int(Option<i64>),
    Real(Option<f64>),
}

/// A value a statement can bind.
pub trait Bind<'q> {
    fn arg(self) -> Arg<'q>;
    /// NULL of this kind.
    fn null() -> Arg<'q>
    where
        Self: Sized;
}

impl<'q> Bind<'q> for &'q str {
    fn arg(self) -> Arg<'q> {
        Arg::Text(Some(Cow::Borrowed(self)))
    }
    fn null() -> Arg<'q> {
        Arg::Text(None)
    }
}

impl<'q> Bind<'q> for &&'q str {
    fn arg(self) -> Arg<'q> {
        Arg::Text(Some(Cow::Borrowed(*self)))
    }
    fn null() -> Arg<'q> {
        Arg::Text(None)
    }
}

impl<'q> Bind<'q> for &'q String {
    fn arg(self) -> Arg<'q> {
        Arg::Text(Some(Cow::Borrowed(self.as_str())))
    }
    fn null() -> Arg<'q> {
        Arg::Text(None)
    }
}

impl<'q> Bind<'q> for String {
    fn arg(self) -> Arg<'q> {
        Arg::Text(Some(Cow::Owned(self)))
    }
    fn null() -> Arg<'q> {
        Arg::Text(None)
    }
}

impl<'q> Bind<'q> for Cow<'q, str> {
    fn arg(self) -> Arg<'q> {
        Arg::Text(Some(self))
    }
    fn null() -> Arg<'q> {
        Arg::Text(None)
    }
}

impl<'q> Bind<'q> for i64 {
    fn arg(self) -> Arg<'q> {
        Arg::Int(Some(self))
    }
    fn null() -> Arg<'q> {
        Arg::Int(None)
    }
}

impl<'q> Bind<'q> for i32 {
    fn arg(self) -> Arg<'q> {
        Arg::Int(Some(i64::from(self)))
    }
    fn null() -> Arg<'q> {
        Arg::Int(None)
    }
}

impl<'q> Bind<'q> for u32 {
    fn arg(self) -> Arg<'q> {
        Arg::Int(Some(i64::from(self)))
    }
    fn null() -> Arg<'q> {
        Arg::Int(None)
    }
}

impl<'q> Bind<'q> for bool {
    fn arg(self) -> Arg<'q> {
        Arg::Int(Some(i64::from(self)))
    }
    fn null() -> Arg<'q> {
        Arg::Int(None)
    }
}

impl<'q> Bind<'q> for f64 {
    fn arg(self) -> Arg<'q> {
        Arg::Real(Some(self))
    }
    fn null() -> Arg<'q> {
        Arg::Real(None)
    }
}

impl<'q, T: Bind<'q>> Bind<'q> for Option<T> {
    fn arg(self) -> Arg<'q> {
        match self {
            Some(value) => value.arg(),
            None => T::null(),
        }
    }
    fn null() -> Arg<'q> {
        T::null()
    }
}

impl<'q> Bind<'q> for &'q Option<String> {
    fn arg(self) -> Arg<'q> {
        self.as_ref().arg()
    }
    fn null() -> Arg<'q> {
        Arg::Text(None)
    }
}

/// A 0/1 flag column (or a yes/no expression) read as a `bool` from either database: both
/// store flags as integers, and a Postgres comparison is a boolean. A row field takes it
/// with `#[sqlx(try_from = "Flag")]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flag(pub bool);

impl From<Flag> for bool {
    fn from(flag: Flag) -> bool {
        flag.0
    }
}

impl sqlx::Type<Sqlite> for Flag {
    fn type_info() -> sqlx::sqlite::SqliteTypeInfo {
        <i64 as sqlx::Type<Sqlite>>::type_info()
    }
    fn compatible(ty: &sqlx::sqlite::SqliteTypeInfo) -> bool {
        <i64 as sqlx::Type<Sqlite>>::compatible(ty) || <bool as sqlx::Type<Sqlite>>::compatible(ty)
    }
}

impl<'r> sqlx::Decode<'r, Sqlite> for Flag {
    fn decode(value: sqlx::sqlite::SqliteValueRef<'r>) -> Result<Self, sqlx::error::BoxDynError> {
        Ok(Flag(<i64 as sqlx::Decode<Sqlite>>::decode(value)? != 0))
    }
}

impl sqlx::Type<Postgres> for Flag {
    fn type_info() -> sqlx::postgres::PgTypeInfo {
        <i64 as sqlx::Type<Postgres>>::type_info()
    }
    fn compatible(ty: &sqlx::postgres::PgTypeInfo) -> bool {
        <i64 as sqlx::Type<Postgres>>::compatible(ty)
            || <i32 as sqlx::Type<Postgres>>::compatible(ty)
            || <bool as sqlx::Type<Postgres>>::compatible(ty)
    }
}

impl<'r> sqlx::Decode<'r, Postgres> for Flag {
    fn decode(value: sqlx::postgres::PgValueRef<'r>) -> Result<Self, sqlx::error::BoxDynError> {
        use sqlx::ValueRef;
        let ty = value.type_info().into_owned();
        if <bool as sqlx::Type<Postgres>>::compatible(&ty) {
            Ok(Flag(<bool as sqlx::Decode<Postgres>>::decode(value)?))
        } else if <i32 as sqlx::Type<Postgres>>::compatible(&ty) {
            Ok(Flag(<i32 as sqlx::Decode<Postgres>>::decode(value)? != 0))
        } else {
            Ok(Flag(<i64 as sqlx::Decode<Postgres>>::decode(value)? != 0))
        }
    }
}

/// What `execute` did.
#[derive(Clone, Copy, Debug)]
pub struct Done {
    rows_affected: u64,
}

impl Done {
    /// The rows the statement inserted, updated or deleted.
    pub fn rows_affected(&self) -> u64 {
        self.rows_affected
    }
}

/// A statement with its values, read as rows of `O`.
#[must_use = "a statement does nothing until it is executed or fetched"]
pub struct Query<'q, O> {
    sql: &'q str,
    /// The statement as Postgres spells it, where that differs.
    postgres: Option<Cow<'q, str>>,
    args: Vec<Arg<'q>>,
    rows: PhantomData<fn() -> O>,
}

/// A statement whose rows are not read.
pub fn query(sql: &str) -> Query<'_, ()> {
    query_as(sql)
}

/// A statement read as rows of `O` (a `FromRow` struct or a tuple).
pub fn query_as<O>(sql: &str) -> Query<'_, O> {
    Query {
        sql,
        postgres: None,
        args: Vec::new(),
        rows: PhantomData,
    }
}

/// Rows that decode from either database's.
pub trait Row: for<'r> FromRow<'r, SqliteRow> + for<'r> FromRow<'r, PgRow> + Send + Unpin {}
impl<T> Row for T where T: for<'r> FromRow<'r, SqliteRow> + for<'r> FromRow<'r, PgRow> + Send + Unpin
{}

impl<'q, O> Query<'q, O> {
    /// The statement as Postgres spells it, where the two dialects differ (JSON, sequences,
    /// SQLite's own functions); with the same parameters, in SQLite's placeholders too.
    pub fn postgres(mut self, sql: impl Into<Cow<'q, str>>) -> Self {
        self.postgres = Some(sql.into());
        self
    }

    /// Binds the next placeholder (or `?N`, in order of their numbers).
    pub fn bind(mut self, value: impl Bind<'q>) -> Self {
        self.args.push(value.arg());
        self
    }

    fn sqlite_args(self) -> Result<(&'q str, SqliteArguments<'q>), sqlx::Error> {
        let mut args = SqliteArguments::default();
        for arg in self.args {
            match arg {
                Arg::Text(v) => args.add(v),
                Arg::Int(v) => args.add(v),
                Arg::Real(v) => args.add(v),
            }
            .map_err(sqlx::Error::Encode)?;
        }
        Ok((self.sql, args))
    }

    fn pg_args(self) -> Result<(String, PgArguments), sqlx::Error> {
        let mut args = PgArguments::default();
        for arg in self.args {
            match arg {
                Arg::Text(v) => args.add(v),
                Arg::Int(v) => args.add(v),
                Arg::Real(v) => args.add(v),
            }
            .map_err(sqlx::Error::Encode)?;
        }
        Ok((
            to_postgres(self.postgres.as_deref().unwrap_or(self.sql)),
            args,
        ))
    }

    /// Runs the statement; how many rows it wrote.
    pub async fn execute(self, tx: &mut Tx) -> Result<Done, sqlx::Error> {
        let rows_affected = match tx.conn() {
            Conn::Sqlite(conn) => {
                let (sql, args) = self.sqlite_args()?;
                sqlx::query_with::<Sqlite, _>(sql, args)
                    .execute(conn)
                    .await?
                    .rows_affected()
            }
            Conn::Postgres(conn) => {
                let (sql, args) = self.pg_args()?;
                failed_on(
                    &sql,
                    sqlx::query_with::<Postgres, _>(&sql, args)
                        .execute(conn)
                        .await,
                )?
                .rows_affected()
            }
        };
        Ok(Done { rows_affected })
    }
}

impl<O: Row> Query<'_, O> {
    /// Every row.
    pub async fn fetch_all(self, tx: &mut Tx) -> Result<Vec<O>, sqlx::Error> {
        match tx.conn() {
            Conn::Sqlite(conn) => {
                let (sql, args) = self.sqlite_args()?;
                sqlx::query_as_with::<Sqlite, O, _>(sql, args)
                    .fetch_all(conn)
                    .await
            }
            Conn::Postgres(conn) => {
                let (sql, args) = self.pg_args()?;
                failed_on(
                    &sql,
                    sqlx::query_as_with::<Postgres, O, _>(&sql, args)
                        .fetch_all(conn)
                        .await,
                )
            }
        }
    }

    /// The first row, if any.
    pub async fn fetch_optional(self, tx: &mut Tx) -> Result<Option<O>, sqlx::Error> {
        match tx.conn() {
            Conn::Sqlite(conn) => {
                let (sql, args) = self.sqlite_args()?;
                sqlx::query_as_with::<Sqlite, O, _>(sql, args)
                    .fetch_optional(conn)
                    .await
            }
            Conn::Postgres(conn) => {
                let (sql, args) = self.pg_args()?;
                failed_on(
                    &sql,
                    sqlx::query_as_with::<Postgres, O, _>(&sql, args)
                        .fetch_optional(conn)
                        .await,
                )
            }
        }
    }

    /// The first row; `RowNotFound` when there is none.
    pub async fn fetch_one(self, tx: &mut Tx) -> Result<O, sqlx::Error> {
        self.fetch_optional(tx)
            .await?
            .ok_or(sqlx::Error::RowNotFound)
    }
}

/// `result`, a statement's; a database's refusal is logged with the statement's text (never
/// its values), which the error itself does not carry.
fn failed_on<T>(sql: &str, result: Result<T, sqlx::Error>) -> Result<T, sqlx::Error> {
    if let Err(sqlx::Error::Database(e)) = &result {
        tracing::debug!(statement = sql, "the database refused a statement: {e}");
    }
    result
}

/// `sql` as Postgres reads it: SQLite's placeholders as Postgres's (`?N` is `$N`, and a
/// bare `?` the next number after the highest so far, SQLite's rule), and SQLite's planner
/// hints dropped (`INDEXED BY name`; `CROSS JOIN … ON`, SQLite's way to fix the join order,
/// is a plain `JOIN`). Text in quotes is left as it is.
pub fn to_postgres(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 8);
    let mut highest = 0u32;
    let mut rest = sql;
    while !rest.is_empty() {
        // The text up to the next quote, then the quoted text as it is.
        let plain_end = rest.find(['\'', '"']).unwrap_or(rest.len());
        let (plain, quoted) = rest.split_at(plain_end);
        out.push_str(&placeholders(&hints_dropped(plain), &mut highest));
        rest = quoted;
        if let Some(q) = rest.chars().next() {
            let end = rest[1..].find(q).map_or(rest.len(), |i| i + 2);
            out.push_str(&rest[..end]);
            rest = &rest[end..];
        }
    }
    out
}

fn hints_dropped(plain: &str) -> String {
    let mut text = plain.replace(" CROSS JOIN ", " JOIN ");
    while let Some(at) = text.find(" INDEXED BY ") {
        let name_at = at + " INDEXED BY ".len();
        let name_end = text[name_at..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(text.len(), |i| name_at + i);
        text.replace_range(at..name_end, "");
    }
    text
}

fn placeholders(plain: &str, highest: &mut u32) -> String {
    let mut out = String::with_capacity(plain.len() + 8);
    let mut chars = plain.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '?' {
            out.push(c);
            continue;
        }
        let mut digits = String::new();
        while let Some(d) = chars.peek().copied().filter(char::is_ascii_digit) {
            digits.push(d);
            chars.next();
        }
        let n = digits.parse::<u32>().unwrap_or(*highest + 1);
        *highest = (*highest).max(n);
        out.push('$');
        out.push_str(&n.to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::to_postgres as numbered;

    #[test]
    fn placeholders_are_numbered_as_sqlite_numbers_them() {
        assert_eq!(
            numbered("SELECT a FROM t WHERE b = ? AND c = ?"),
            "SELECT a FROM t WHERE b = $1 AND c = $2"
        );
        assert_eq!(
            numbered("UPDATE t SET a = ?2 WHERE id = ?1 AND (?3 IS NULL OR b < ?3)"),
            "UPDATE t SET a = $2 WHERE id = $1 AND ($3 IS NULL OR b < $3)"
        );
        // A bare `?` after `?N` is the next number after the highest.
        assert_eq!(numbered("?2, ?, ?1, ?"), "$2, $3, $1, $4");
        // Quoted text keeps its question marks; `''` inside a literal stays text.
        assert_eq!(
            numbered("SELECT '?', 'it''s ?', \"a?\" WHERE x = ?"),
            "SELECT '?', 'it''s ?', \"a?\" WHERE x = $1"
        );
        assert_eq!(numbered("?10 ?"), "$10 $11");
    }

    #[test]
    fn sqlites_planner_hints_are_dropped() {
        assert_eq!(
            numbered("SELECT 1 FROM tasks t INDEXED BY tasks_recent LEFT JOIN w ON w.id = ?"),
            "SELECT 1 FROM tasks t LEFT JOIN w ON w.id = $1"
        );
        assert_eq!(
            numbered("FROM json_each(?1) d CROSS JOIN tasks t ON t.id = d.value"),
            "FROM json_each($1) d JOIN tasks t ON t.id = d.value"
        );
        assert_eq!(numbered("SELECT ' CROSS JOIN '"), "SELECT ' CROSS JOIN '");
    }
}
