//! The `headroom` binary: everything lives in the library; see `cli::run`.

fn main() -> std::process::ExitCode {
    headroom::cli::run(std::env::args_os())
}
