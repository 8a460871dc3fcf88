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
        args: Vec::new(),
        rows: PhantomData,
    }
}

/// Rows that decode from either database's.
pub trait Row: for<'r> FromRow<'r, SqliteRow> + for<'r> FromRow<'r, PgRow> + Send + Unpin {}
impl<T> Row for T where T: for<'r> FromRow<'r, SqliteRow> + for<'r> FromRow<'r, PgRow> + Send + Unpin
{}

impl<'q, O> Query<'q, O> {
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
        Ok((numbered(self.sql), args))
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
                sqlx::query_with::<Postgres, _>(&sql, args)
                    .execute(conn)
                    .await?
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
                sqlx::query_as_with::<Postgres, O, _>(&sql, args)
                    .fetch_all(conn)
                    .await
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
                sqlx::query_as_with::<Postgres, O, _>(&sql, args)
                    .fetch_optional(conn)
                    .await
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

/// `sql` with SQLite's placeholders as Postgres's: `?N` is `$N`, and a bare `?` the next
/// number after the highest so far (SQLite's rule). Text in quotes is left as it is.
pub fn numbered(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 8);
    let mut highest = 0u32;
    let mut chars = sql.char_indices().peekable();
    let mut quote: Option<char> = None;
    while let Some((_, c)) = chars.next() {
        match quote {
            Some(q) => {
                out.push(c);
                if c == q {
                    quote = None;
                }
            }
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                out.push(c);
            }
            None if c == '?' => {
                let mut digits = String::new();
                while let Some((_, d)) = chars.peek().copied().filter(|(_, d)| d.is_ascii_digit()) {
                    digits.push(d);
                    chars.next();
                }
                let n = match digits.parse::<u32>() {
                    Ok(n) => n,
                    Err(_) => highest + 1,
                };
                highest = highest.max(n);
                out.push('$');
                out.push_str(&n.to_string());
            }
            None => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::numbered;

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
}
