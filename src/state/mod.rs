pub mod board;
pub mod connection;
pub mod leave_guard;
pub mod refresh;
pub mod theme;
pub mod write;
