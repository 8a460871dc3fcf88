//! What the app keeps while it runs, apart from any page: the connection and what its API
//! offers, the board of every mission, the theme, and the helpers every panel reads and
//! writes through (`refresh`, `mutation`, `request`) and lists its rows with (`rows`), and the stylesheets fetched after the first load. Uses
//! the API client and core only.

pub mod activity;
pub mod board;
pub mod capabilities;
pub mod connect_check;
pub mod connection;
pub mod first_screen;
pub mod leave_guard;
pub mod live;
pub mod mutation;
pub mod plan_costs;
pub mod reconciled;
pub mod refresh;
pub mod request;
pub mod rows;
pub mod stylesheet;
pub mod theme;
pub mod title;
pub mod workspace_row;
