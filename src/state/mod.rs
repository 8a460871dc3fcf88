pub mod connection;
pub mod refresh;
pub mod theme;
