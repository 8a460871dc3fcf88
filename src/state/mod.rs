pub mod board;
pub mod capabilities;
pub mod connection;
pub mod leave_guard;
pub mod refresh;
pub mod request;
pub mod theme;
pub mod write;
