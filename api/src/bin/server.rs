//! The server: parse configuration, start logging, build the application, run it.

use clap::Parser;

/// The system allocator spends a fifth of the server's CPU in `malloc`/`free` under load
/// (every request builds and drops JSON trees); mimalloc's thread-local heaps do not.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[actix_web::main]
async fn main() -> anyhow::Result<()> {
    let settings = api::Settings::parse();
    api::telemetry::init(settings.log_format());
    let app = api::Application::build(settings).await?;
    // Launchers (and the two-process test) read the real port from this line.
    println!("listening on http://{}", app.address());
    app.run().await?;
    Ok(())
}
