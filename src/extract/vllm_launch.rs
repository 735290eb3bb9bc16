//! Reads how the owner starts vLLM into the server's memory settings: a
//! shell command (`vllm serve …`, `python -m vllm.entrypoints.openai.api_server
//! …`, `docker run … vllm/vllm-openai …`) or a compose or Kubernetes block
//! (`command:` / `args:` as a list, a folded string or a flow list).
//!
//! The flags are the server's own: its port, `--max-model-len` and
//! `--max-num-seqs` never become the training run's settings.

use crate::extract::re;
use crate::extract::vllm_log::{VllmLog, VllmText};
use regex::Regex;
use std::sync::LazyLock;

/// A shell prompt before the command: `$ `, `# `, `user@host:~$ `.
static PROMPT: LazyLock<Regex> =
    LazyLock::new(|| re(r"^\s*(?:\([\w.-]+\)\s+)?(?:\S+@\S+?(?::\S*)?\s*)?[\$\#]\s+"));
/// A command line that starts vLLM, with environment assignments and
/// `sudo` before it allowed.
static LAUNCHER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:sudo\s+(?:-E\s+)?)?(?:[A-Z_][A-Z0-9_]*=\S*\s+)*(?:vllm\s+serve\b|\S*python[\d.]*\s+-m\s+vllm\w*\.entrypoints\.\S+|(?:docker|podman|nerdctl)\s+run\b)",
    )
});
/// A compose or Kubernetes key whose value is the server's argv.
static ARGV_KEY: LazyLock<Regex> =
    LazyLock::new(|| re(r"^(\s*)(?:-\s+)?(command|args|entrypoint)\s*:\s*(.*)$"));
static IMAGE_KEY: LazyLock<Regex> =
    LazyLock::new(|| re(r#"^\s*(?:-\s+)?image\s*:\s*["']?([^\s"']+)"#));
static CONTAINER_KEY: LazyLock<Regex> =
    LazyLock::new(|| re(r#"^\s*container_name\s*:\s*["']?([^\s"']+)"#));
static LIST_ITEM: LazyLock<Regex> = LazyLock::new(|| re(r"^(\s*)-\s+(.*)$"));

/// Where the launch was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    /// A command line typed in a shell.
    Shell,
    /// `docker run` (or podman, nerdctl) of a vLLM image.
    Container,
    /// A compose service or a Kubernetes container spec.
    Manifest,
}

/// The launch as read: the arguments and what surrounds them.
#[derive(Debug, Clone, PartialEq)]
struct Launch {
    argv: Vec<String>,
    form: Form,
    image: Option<String>,
    container: Option<String>,
}

/// Lines with `\` continuations joined (as the segmenter joins them),
/// fences and prompts dropped.
fn logical_lines(text: &str) -> Vec<String> {
    crate::extract::segment::continued_lines(text)
        .into_iter()
        .filter(|l| !l.trim_start().starts_with("```"))
        .map(|l| PROMPT.replace(&l, "").into_owned())
        .collect()
}

/// A YAML scalar or list item without its quotes and trailing comment.
fn yaml_item(s: &str) -> String {
    let t = s.trim();
    let quoted = |q: char| t.starts_with(q) && t[1..].contains(q);
    if quoted('"') || quoted('\'') {
        let q = t.chars().next().unwrap_or('"');
        let end = t[1..].find(q).map_or(t.len(), |i| i + 1);
        return t[1..end].to_string();
    }
    match t.find(" #") {
        Some(i) => t[..i].trim_end().to_string(),
        None => t.to_string(),
    }
}

/// Words of one item: "--gpu-memory-utilization 0.45" is two.
fn words_of(item: &str) -> Vec<String> {
    shlex::split(item).unwrap_or_else(|| item.split_whitespace().map(str::to_string).collect())
}

/// `["python3", "-m", "vllm…"]`, possibly over several lines.
fn flow_list(body: &str) -> Vec<String> {
    let inner = body.trim().trim_start_matches('[').trim_end_matches(']');
    inner
        .split(',')
        .map(yaml_item)
        .filter(|s| !s.is_empty())
        .flat_map(|s| words_of(&s))
        .collect()
}

/// The argv under one `command:` / `args:` key starting at line `at`.
fn manifest_value(lines: &[String], at: usize, indent: usize, value: &str) -> Vec<String> {
    let value = value.trim();
    let deeper = |l: &String| {
        l.trim().is_empty()
            || l.len() - l.trim_start().len() > indent
            || l.trim_start().starts_with('#')
    };
    if value.is_empty() {
        // A block list; YAML allows its dashes at the key's own indent.
        return lines[at + 1..]
            .iter()
            .take_while(|l| {
                l.trim().is_empty() || LIST_ITEM.is_match(l) || l.trim_start().starts_with('#')
            })
            .filter_map(|l| LIST_ITEM.captures(l).map(|c| yaml_item(&c[2])))
            .filter(|s| !s.is_empty())
            .flat_map(|s| words_of(&s))
            .collect();
    }
    if value.starts_with('>') || value.starts_with('|') {
        let folded: Vec<&str> = lines[at + 1..]
            .iter()
            .take_while(|l| deeper(l))
            .map(|l| l.trim())
            .filter(|l| !l.starts_with('#'))
            .collect();
        return words_of(&folded.join(" "));
    }
    if value.starts_with('[') {
        let mut body = value.to_string();
        let mut i = at + 1;
        while !body.contains(']') && i < lines.len() {
            body.push(' ');
            body.push_str(lines[i].trim());
            i += 1;
        }
        return flow_list(&body);
    }
    words_of(&yaml_item(value))
}

fn manifest(lines: &[String]) -> Option<Launch> {
    let mut argv = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if let Some(c) = ARGV_KEY.captures(line) {
            argv.extend(manifest_value(lines, i, c[1].len(), &c[3]));
        }
    }
    let image = lines
        .iter()
        .find_map(|l| IMAGE_KEY.captures(l).map(|c| c[1].to_string()));
    let container = lines
        .iter()
        .find_map(|l| CONTAINER_KEY.captures(l).map(|c| c[1].to_string()));
    (!argv.is_empty()).then_some(Launch {
        argv,
        form: Form::Manifest,
        image,
        container,
    })
}

/// The first command line that starts vLLM.
fn shell(lines: &[String]) -> Option<Launch> {
    let line = lines
        .iter()
        .map(|l| l.trim())
        .find(|l| LAUNCHER.is_match(l))?;
    let words = words_of(line);
    let run = words.iter().position(|w| w == "run").filter(|_| {
        words
            .iter()
            .any(|w| ["docker", "podman", "nerdctl"].contains(&w.as_str()))
    });
    let Some(run) = run else {
        return Some(Launch {
            argv: words,
            form: Form::Shell,
            image: None,
            container: None,
        });
    };
    // The image is the first word after `run` that names vLLM and is not
    // an option's value (`-v ~/.cache/vllm:/root`) or an option.
    let at = (run + 1..words.len()).find(|&i| {
        let w = &words[i];
        !w.starts_with('-') && w.to_ascii_lowercase().contains("vllm") && !w.contains('=') && {
            let prev = &words[i - 1];
            !(prev.starts_with('-') && !prev.contains('=') && i - 1 > run && takes_value(prev))
        }
    })?;
    let container = flag_in(&words[run + 1..at], &["--name"]);
    Some(Launch {
        argv: words[at + 1..].to_vec(),
        form: Form::Container,
        image: Some(words[at].clone()),
        container,
    })
}

/// `docker run` options that take no value, so the word after them may
/// be the image.
fn takes_value(option: &str) -> bool {
    !matches!(
        option,
        "-d" | "--detach"
            | "--rm"
            | "-it"
            | "-i"
            | "-t"
            | "--privileged"
            | "--init"
            | "--interactive"
            | "--tty"
    )
}

fn launch(text: &str) -> Option<Launch> {
    let lines = logical_lines(text);
    let found = shell(&lines).or_else(|| manifest(&lines))?;
    is_vllm(&found).then_some(found)
}

fn is_vllm(l: &Launch) -> bool {
    let names_vllm = l
        .argv
        .windows(2)
        .any(|w| w[0].ends_with("vllm") && w[1] == "serve")
        || l.argv
            .iter()
            .any(|w| w.starts_with("vllm") && w.contains(".entrypoints"))
        || l.image
            .as_ref()
            .is_some_and(|i| i.to_ascii_lowercase().contains("vllm"));
    names_vllm || flag_in(&l.argv, &["--gpu-memory-utilization"]).is_some()
}

/// A flag's value: `--flag value` or `--flag=value`, with `_` and `-`
/// alike (argparse takes both spellings).
fn flag_in(argv: &[String], names: &[&str]) -> Option<String> {
    for (i, w) in argv.iter().enumerate() {
        let (name, inline) = match w.split_once('=') {
            Some((n, v)) => (n.replace('_', "-"), Some(v.to_string())),
            None => (w.replace('_', "-"), None),
        };
        if names.contains(&name.as_str()) {
            return inline.or_else(|| argv.get(i + 1).cloned());
        }
    }
    None
}

/// vLLM's human-readable integers (`human_readable_int` in vllm's
/// arg_utils.py): a lower-case suffix is decimal (k = 1000), an
/// upper-case one binary (K = 1024).
fn human_int(s: &str) -> Option<u64> {
    let s = s.trim();
    let split = s.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(s.len());
    let (num, suffix) = s.split_at(split);
    let n: f64 = num.parse().ok()?;
    let scale = match suffix {
        "" => 1.0,
        "k" => 1e3,
        "m" => 1e6,
        "g" => 1e9,
        "t" => 1e12,
        "K" => 1024.0,
        "M" => 1024f64.powi(2),
        "G" => 1024f64.powi(3),
        "T" => 1024f64.powi(4),
        _ => return None,
    };
    let v = n * scale;
    (0.0..1e18).contains(&v).then_some(v.round() as u64)
}

/// The model: `--model`, or the first word that is neither the launcher
/// nor an option nor an option's value.
fn model_of(l: &Launch) -> Option<String> {
    if let Some(m) = flag_in(&l.argv, &["--model"]) {
        return Some(m);
    }
    let mut words = l.argv.iter().peekable();
    // Skip the launcher: `vllm serve`, `python -m vllm.entrypoints…`.
    let launcher_end = l
        .argv
        .iter()
        .position(|w| w == "serve" || w.contains(".entrypoints"))
        .map_or(0, |i| i + 1);
    for _ in 0..launcher_end {
        words.next();
    }
    let first = words.next()?;
    (!first.starts_with('-') && !first.contains("python")).then(|| first.clone())
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum VllmLaunchError {
    #[error(
        "it starts vLLM, but I read no flag of its memory (--gpu-memory-utilization, --kv-cache-memory-bytes) and no model"
    )]
    NoSettings,
}

impl VllmLaunchError {
    pub fn hint(&self) -> &'static str {
        "Paste the whole launch command, every flag included, or the compose service's `command:` list."
    }
}

/// True when the text starts vLLM: a command line or a manifest's argv.
pub fn looks_like_vllm_launch(text: &str) -> bool {
    launch(text).is_some()
}

/// The server's memory settings from its launch.
pub fn parse_vllm_launch(text: &str) -> Result<VllmLog, VllmLaunchError> {
    let l = launch(text).ok_or(VllmLaunchError::NoSettings)?;
    let utilization = flag_in(&l.argv, &["--gpu-memory-utilization"])
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|f| *f > 0.0 && *f <= 1.0);
    // argparse takes a unique prefix, so the shorter spelling works too.
    let kv_cache_bytes = flag_in(&l.argv, &["--kv-cache-memory-bytes", "--kv-cache-memory"])
        .and_then(|v| human_int(&v));
    let max_model_len = flag_in(&l.argv, &["--max-model-len"]).and_then(|v| human_int(&v));
    let served_model = model_of(&l);
    if utilization.is_none() && kv_cache_bytes.is_none() && served_model.is_none() {
        return Err(VllmLaunchError::NoSettings);
    }
    Ok(VllmLog {
        utilization,
        served_model,
        max_model_len,
        kv_cache_bytes,
        container: l.container,
        origin: match l.form {
            Form::Shell => VllmText::Command,
            Form::Container => VllmText::DockerRun,
            Form::Manifest => VllmText::Manifest,
        },
        ..VllmLog::default()
    })
}

crate::extract::reading::paste_reader!(
    /// How vLLM is started: a command line or a manifest.
    VllmLaunchPaste,
    "a vLLM launch command",
    looks_like_vllm_launch,
    parse_vllm_launch => crate::extract::reading::Reading::VllmLog
);

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> VllmLog {
        assert!(looks_like_vllm_launch(text), "not claimed: {text}");
        parse_vllm_launch(text).unwrap()
    }

    #[test]
    fn a_serve_command_over_continued_lines() {
        let log = read(
            "$ vllm serve Qwen/Qwen2.5-7B-Instruct \\\n    --gpu-memory-utilization 0.35 \\\n    --max-model-len 32k --port 8000",
        );
        assert_eq!(log.utilization, Some(0.35));
        assert_eq!(
            log.served_model.as_deref(),
            Some("Qwen/Qwen2.5-7B-Instruct")
        );
        assert_eq!(log.max_model_len, Some(32_000));
        assert_eq!(log.origin, VllmText::Command);
    }

    #[test]
    fn the_api_server_module_with_equals_and_underscores() {
        let log = read(
            "CUDA_VISIBLE_DEVICES=0 python3 -m vllm.entrypoints.openai.api_server --model=meta-llama/Llama-3.1-8B-Instruct --gpu_memory_utilization=0.5 --dtype auto",
        );
        assert_eq!(log.utilization, Some(0.5));
        assert_eq!(
            log.served_model.as_deref(),
            Some("meta-llama/Llama-3.1-8B-Instruct")
        );
    }

    #[test]
    fn docker_run_reads_the_image_args_and_the_container_name() {
        let log = read(
            "docker run -d \\\n  --gpus all \\\n  --name vllm-coder \\\n  -p 8080:8080 \\\n  -v ~/.cache/huggingface:/root/.cache/huggingface \\\n  vllm/vllm-openai:latest \\\n  --model Qwen/Qwen3-4B-AWQ \\\n  --port 8080 \\\n  --gpu-memory-utilization 0.3",
        );
        assert_eq!(log.utilization, Some(0.3));
        assert_eq!(log.container.as_deref(), Some("vllm-coder"));
        assert_eq!(log.served_model.as_deref(), Some("Qwen/Qwen3-4B-AWQ"));
        assert_eq!(log.origin, VllmText::DockerRun);
    }

    #[test]
    fn a_compose_command_list_with_a_positional_model_and_kv_bytes() {
        let log = read(
            "    command:\n      - sakamakismile/Huihui-Qwen3.6-35B-A3B-abliterated-NVFP4\n      - --port\n      - \"8000\"\n      - --gpu-memory-utilization\n      - \"0.45\"\n      - --kv-cache-memory\n      - \"16488545280\"\n      - --max-model-len\n      - \"262144\"\n      - --max-num-seqs\n      - \"4\"",
        );
        assert_eq!(log.utilization, Some(0.45));
        assert_eq!(log.kv_cache_bytes, Some(16_488_545_280));
        assert_eq!(log.max_model_len, Some(262_144));
        assert_eq!(
            log.served_model.as_deref(),
            Some("sakamakismile/Huihui-Qwen3.6-35B-A3B-abliterated-NVFP4")
        );
        assert_eq!(log.origin, VllmText::Manifest);
    }

    #[test]
    fn a_folded_compose_command_with_its_container_name() {
        let log = read(
            "  vllm-embedding:\n    image: vllm/vllm-openai:latest\n    container_name: vllm-embed\n    ports:\n      - \"8002:8000\"\n    command: >\n      --model /models/gemma-4-E4B-it\n      --max-model-len 8192\n      --gpu-memory-utilization 0.25\n    restart: unless-stopped",
        );
        assert_eq!(log.utilization, Some(0.25));
        assert_eq!(log.container.as_deref(), Some("vllm-embed"));
        assert_eq!(log.max_model_len, Some(8192));
    }

    #[test]
    fn kubernetes_args_quoted_with_comments_and_a_flow_command() {
        let log = read(
            "      - name: vllm\n        image: vllm/vllm-openai:v0.6.6\n        command: [\"python3\", \"-m\", \"vllm.entrypoints.openai.api_server\"]\n        args:\n        - \"--model\"\n        - \"/models/DeepSeek-V3\"\n        - \"--max-model-len\"\n        - \"32768\"                         # longest request\n        - \"--gpu-memory-utilization\"\n        - \"0.40\"",
        );
        assert_eq!(log.utilization, Some(0.4));
        assert_eq!(log.served_model.as_deref(), Some("/models/DeepSeek-V3"));
    }

    #[test]
    fn binary_and_decimal_suffixes_of_the_kv_size() {
        assert_eq!(human_int("16G"), Some(17_179_869_184));
        assert_eq!(human_int("16g"), Some(16_000_000_000));
        assert_eq!(human_int("25.6k"), Some(25_600));
        assert_eq!(human_int("12x"), None);
    }

    #[test]
    fn what_is_not_a_vllm_launch() {
        for text in [
            "can I run vllm beside my training with gpu_memory_utilization 0.5?",
            "docker run --gpus all -it nvcr.io/nvidia/pytorch:24.08-py3 bash",
            "services:\n  web:\n    image: nginx\n    command: [\"nginx\", \"-g\", \"daemon off;\"]",
            "ollama serve",
        ] {
            assert!(!looks_like_vllm_launch(text), "claimed: {text}");
        }
    }

    #[test]
    fn an_out_of_range_fraction_is_not_read() {
        let log = read("vllm serve m --gpu-memory-utilization 45");
        assert_eq!(log.utilization, None);
        assert_eq!(log.served_model.as_deref(), Some("m"));
    }
}
