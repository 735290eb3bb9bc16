//! The binary's entry: parse flags, pick the mode, map errors to exit codes.

pub mod args;
pub mod models;
pub mod plan;
pub mod procs;
pub mod thermal;

use crate::conversation::{Conversation, now};
use crate::memory::datadir;

use args::{Cli, Command};
use clap::Parser;
use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

fn fail(message: &str) -> ExitCode {
    // Paths and pasted text may hold control bytes: never raw to stderr.
    eprintln!("headroom: {}", crate::render::terminal::sanitize(message));
    ExitCode::FAILURE
}

fn is_broken_pipe(e: &std::io::Error) -> bool {
    e.kind() == std::io::ErrorKind::BrokenPipe
}

/// `headroom plan`'s exit code guards a launch (`headroom plan … &&
/// accelerate launch …`): 0 fits (tight included), 1 does not fit, 2 bad input.
fn plan_exit(result: Result<(String, crate::calc::verdict::Verdict), plan::PlanError>) -> ExitCode {
    match result {
        Err(e) => {
            eprintln!(
                "headroom: {}",
                crate::render::terminal::sanitize(&e.to_string())
            );
            ExitCode::from(2)
        }
        Ok((text, verdict)) => {
            let printed = print(Ok(text));
            if printed != ExitCode::SUCCESS {
                printed
            } else if verdict == crate::calc::verdict::Verdict::DoesNotFit {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
    }
}

/// Print a one-shot answer, or its error; a closed pipe is not an error.
fn print(result: Result<String, String>) -> ExitCode {
    match result {
        Ok(text) => match writeln!(std::io::stdout(), "{text}") {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
            Err(e) => fail(&e.to_string()),
        },
        Err(e) => fail(&e),
    }
}

pub fn run(argv: impl IntoIterator<Item = OsString>) -> ExitCode {
    let cli = match Cli::try_parse_from(argv) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(e.exit_code() as u8);
        }
    };
    match &cli.command {
        Some(Command::Plan(args)) => plan_exit(plan::run(args)),
        Some(Command::Models { json }) => print(Ok(models::list(*json))),
        Some(Command::Completions { shell }) => {
            use clap::CommandFactory;
            let mut cmd = Cli::command();
            clap_complete::generate(*shell, &mut cmd, "headroom", &mut std::io::stdout());
            ExitCode::SUCCESS
        }
        // As for `plan` and `thermal`, an input that cannot be read or is
        // not a listing exits 2.
        Some(Command::Procs { file, need, json }) => {
            match procs::run(file.as_deref(), *need, *json) {
                Ok(text) => print(Ok(text)),
                Err(e) => {
                    fail(&e.to_string());
                    ExitCode::from(2)
                }
            }
        }
        Some(Command::Validate) => {
            let k = crate::knowledge::Knowledge::embedded();
            print(crate::validation::run(k).and_then(|outcomes| {
                let spark = crate::spark_validation::run(k)?;
                Ok(format!(
                    "{}\n{}",
                    crate::validation::report(&outcomes),
                    crate::spark_validation::report(&spark)
                ))
            }))
        }
        Some(Command::Thermal {
            thermal,
            train_log,
            start,
            log_tz,
            tokens_per_step,
            json,
            svg,
            png,
        }) => match thermal::run(&thermal::ThermalArgs {
            thermal,
            train_log: train_log.as_deref(),
            start: start.as_deref(),
            log_tz: *log_tz,
            tokens_per_step: *tokens_per_step,
            json: *json,
            svg: svg.as_deref(),
            png: png.as_deref(),
        }) {
            // Every error here is the input's: a file that cannot be read
            // or is not what it should be (exit 2, as for `plan`).
            Err(e) => {
                fail(&e.to_string());
                ExitCode::from(2)
            }
            Ok((text, None)) => print(Ok(text)),
            // The verdict first, then why the chart is missing.
            Ok((text, Some(chart))) => {
                let _ = print(Ok(text));
                fail(&format!("the chart could not be written: {chart}"))
            }
        },
        // The script alone on stdout, so `headroom sampler > sample.sh`
        // is runnable; how to use it goes to stderr.
        Some(Command::Sampler) => {
            eprintln!("{}", thermal::sampler_usage());
            print(Ok(thermal::SAMPLER.trim_end().to_string()))
        }
        Some(Command::Key { action }) => print(key(action)),
        None => dialogue(&cli),
    }
}

fn key(action: &args::KeyAction) -> Result<String, String> {
    use crate::llm::secrets;
    match action {
        args::KeyAction::Set => {
            let key = if std::io::stdin().is_terminal() {
                rpassword::prompt_password("API key (not shown): ").map_err(|e| e.to_string())?
            } else {
                let mut line = String::new();
                std::io::stdin()
                    .read_line(&mut line)
                    .map_err(|e| e.to_string())?;
                line
            };
            let key = key.trim();
            if key.is_empty() {
                return Err("no key given; nothing stored".into());
            }
            secrets::set(key)?;
            Ok("Stored the API key in the OS keyring.".into())
        }
        args::KeyAction::Clear => Ok(if secrets::clear()? {
            "Removed the API key from the OS keyring.".into()
        } else {
            "There was no API key in the OS keyring.".into()
        }),
    }
}

/// `--llm`, else the config file's default, else none.
fn endpoint(cli: &Cli) -> Result<Option<crate::llm::endpoint::Endpoint>, String> {
    use crate::llm::endpoint::{Endpoint, from_config};
    match &cli.llm {
        Some(spec) if spec == "off" => Ok(None),
        Some(spec) => Endpoint::parse(spec)
            .map(Some)
            .map_err(|e| format!("--llm {spec}: {e}")),
        None => match from_config() {
            None => Ok(None),
            Some(r) => r.map(Some).map_err(|e| format!("the llm config file: {e}")),
        },
    }
    .map(|e| {
        e.map(|mut e| {
            e.allow_http = cli.allow_http;
            e
        })
    })
}

fn dialogue(cli: &Cli) -> ExitCode {
    let dir = match datadir::resolve(cli.data_dir.as_deref()) {
        Ok(d) => d,
        Err(e) => return fail(&e),
    };
    // A bad `--llm` (or config file) spec is a bad flag: exit 2, as for
    // every input error.
    let llm = match endpoint(cli) {
        Ok(e) => e,
        Err(e) => {
            fail(&e);
            return ExitCode::from(2);
        }
    };
    let mut conv = match Conversation::open(&dir, now()) {
        Ok(c) => c,
        Err(e) => return fail(&e.to_string()),
    };
    conv.allow_http = cli.allow_http;
    // Pick Ollama's model once (its first installed one) rather than per reply.
    conv.llm = llm.map(|mut e| {
        if e.model.is_none()
            && let Ok(m) = crate::llm::phrase::model_for(&e)
        {
            e.model = Some(m);
        }
        e
    });
    if std::io::stderr().is_terminal() {
        conv.progress = Box::new(std::io::stderr());
    }
    if std::io::stdin().is_terminal() {
        match crate::repl::run(&mut conv) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(&e.to_string()),
        }
    } else {
        let stdin = std::io::stdin().lock();
        let mut stdout = std::io::stdout().lock();
        match crate::piped::run(&mut conv, stdin, &mut stdout) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
            Err(e) => fail(&format!("could not write the transcript or reply: {e}")),
        }
    }
}
