//! `buildd-server serve | key create`.

use buildd_core::AccountLevel;
use buildd_server::{app, demo, keys, Db};
use clap::{Parser, Subcommand};
use std::net::SocketAddr;
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "buildd-server",
    version,
    about = "The Buildd API server, on SQLite"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the API under /api and the dashboard from --dist.
    Serve {
        /// Address and port to listen on.
        #[arg(long, env = "BUILDD_LISTEN", default_value = "127.0.0.1:8080")]
        listen: SocketAddr,
        /// SQLite database file; created and migrated when missing.
        #[arg(long, env = "BUILDD_DB", default_value = "buildd.db")]
        db: PathBuf,
        /// The built dashboard (trunk's dist/) to serve at /.
        #[arg(long, env = "BUILDD_DIST")]
        dist: Option<PathBuf>,
        /// Seed a demo team, workspace and missions into an empty database, and print a
        /// dashboard link with a new admin key of the demo team.
        #[arg(long)]
        demo: bool,
    },
    /// Manage API keys.
    Key {
        #[command(subcommand)]
        command: KeyCommand,
    },
}

#[derive(Subcommand)]
enum KeyCommand {
    /// Create an API key and print it. It is stored only as a hash: this is the only
    /// time it is shown.
    Create {
        /// What the key may do: admin (everything), worker (claim and report work),
        /// trigger (read only).
        #[arg(long, value_parser = ["admin", "worker", "trigger"])]
        level: String,
        /// The key's team; created when it does not exist.
        #[arg(long, default_value = "Default team")]
        team: String,
        /// A label for the key.
        #[arg(long, default_value = "cli")]
        name: String,
        /// SQLite database file.
        #[arg(long, env = "BUILDD_DB", default_value = "buildd.db")]
        db: PathBuf,
    },
}

fn fail(message: String) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1)
}

#[tokio::main]
async fn main() {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "info,sqlx=warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    match Cli::parse().command {
        Command::Serve {
            listen,
            db,
            dist,
            demo: with_demo,
        } => {
            let database = Db::open(&db)
                .await
                .unwrap_or_else(|e| fail(format!("opening {}: {e}", db.display())));
            if let Some(dist) = &dist {
                if !dist.join("index.html").exists() {
                    fail(format!("{} has no index.html", dist.display()));
                }
            }
            let listener = tokio::net::TcpListener::bind(listen)
                .await
                .unwrap_or_else(|e| fail(format!("listening on {listen}: {e}")));
            let addr = listener.local_addr().expect("bound address");
            if with_demo {
                let seeded = demo::seed_if_empty(&database)
                    .await
                    .unwrap_or_else(|e| fail(format!("seeding demo data: {e}")));
                let key = demo::dashboard_key(&database)
                    .await
                    .unwrap_or_else(|e| fail(format!("creating a demo key: {e}")));
                if seeded {
                    println!("Seeded demo data into {}.", db.display());
                }
                println!("Open the dashboard, already connected to the demo team:");
                println!("    http://{addr}/#key={key}");
            } else {
                println!("Buildd API server listening on http://{addr}");
            }
            let router = app(database, dist.as_deref());
            axum::serve(listener, router)
                .with_graceful_shutdown(async {
                    let _ = tokio::signal::ctrl_c().await;
                })
                .await
                .unwrap_or_else(|e| fail(format!("serving: {e}")));
        }
        Command::Key {
            command:
                KeyCommand::Create {
                    level,
                    team,
                    name,
                    db,
                },
        } => {
            let database = Db::open(&db)
                .await
                .unwrap_or_else(|e| fail(format!("opening {}: {e}", db.display())));
            let key = async {
                let mut tx = database.write().await?;
                let team_id = keys::ensure_team(&mut tx, &team).await?;
                let key = keys::create_key(&mut tx, &team_id, &AccountLevel::parse(&level), &name)
                    .await?;
                tx.commit().await?;
                Ok::<_, sqlx::Error>(key)
            }
            .await
            .unwrap_or_else(|e| fail(format!("creating the key: {e}")));
            println!("{key}");
        }
    }
}
