// The migrations are compiled in (`sqlx::migrate!`): a file added or changed rebuilds.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
    println!("cargo:rerun-if-changed=migrations-postgres");
}
