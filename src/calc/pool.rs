//! The shared pool: who else holds memory, what each is capped at, and
//! whether each can stay beside the run. Caps, not presence, decide.
//!
//! The seed's rule: the one-heavy-job rule applies only to uncapped or
//! near-capacity workloads; a small capped job (<4 GB beside vLLM at ≤0.5)
//! coexists. Eviction between processes on one pool is silent on both sides.

use crate::calc::units::{GIB, centi_gb_up, plain, show_centi};
use crate::knowledge::Knowledge;
use crate::readings::process::{Process, ProcessKind};
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Recommendation {
    Keep,
    Stop,
    /// A damaged listing's line (pid 0 or 1, a pid listed twice): neither
    /// kept nor stopped; a fresh listing is asked for.
    NotJudged,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProcessVerdict {
    pub process: Process,
    /// The fraction of CUDA memory it may take, and where that came from.
    pub cap_fraction: Option<f64>,
    pub cap_centi_gb: Option<u64>,
    pub cap_text: String,
    /// Uncapped or capped near the whole pool.
    pub heavy: bool,
    pub recommendation: Recommendation,
    pub reason: String,
    /// The reason in a few words, for the table.
    pub why: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PoolReport {
    pub processes: Vec<ProcessVerdict>,
    /// What the planned run needs, hundredths of a GB, when known.
    pub need_centi_gb: Option<u64>,
    /// CUDA-visible pool minus the OS/driver reserve.
    pub pool_budget_centi_gb: u64,
    /// Caps of the servers kept, summed.
    pub kept_caps_centi_gb: u64,
    pub pool_text: String,
    /// Rows left out for a damaged pid column, as printed.
    pub damaged_pids: Vec<String>,
}

impl PoolReport {
    pub fn stops(&self) -> impl Iterator<Item = &ProcessVerdict> {
        self.processes
            .iter()
            .filter(|p| p.recommendation == Recommendation::Stop)
    }
}

fn pool_bytes(k: &Knowledge) -> f64 {
    k.spark("memory CUDA reports").value * GIB
}

fn cap_of(p: &Process, k: &Knowledge) -> (Option<f64>, String) {
    let pool = k.spark("memory CUDA reports");
    match p.kind {
        ProcessKind::Vllm => match p.utilization_flag {
            Some(f) => (
                Some(f),
                format!(
                    "capped at {} (read from `--gpu-memory-utilization {}` on its command line) × {} GiB = {} GB",
                    plain(f),
                    plain(f),
                    plain(pool.value),
                    show_centi(centi_gb_up(f * pool.value * GIB))
                ),
            ),
            None => {
                let d = k.spark("vLLM default gpu-memory-utilization");
                (
                    Some(d.value),
                    format!(
                        "no flag on its command line, so vLLM's default {} ({}) × {} GiB = {} GB",
                        plain(d.value),
                        d.cite,
                        plain(pool.value),
                        show_centi(centi_gb_up(d.value * pool.value * GIB))
                    ),
                )
            }
        },
        ProcessKind::VllmEngine => (
            None,
            "no cap on its own line: it is the engine of a vLLM server and shares that server's cap".into(),
        ),
        ProcessKind::Unknown => (None, "not recognised, so no cap is assumed".into()),
        _ => (
            None,
            "no visible cap: it can take memory until the pool runs out".into(),
        ),
    }
}

/// What the run and the servers' caps share: an idle Spark's available
/// memory less the reserve, the same figure a plan uses without `free`, so
/// one session never shows two budgets for one box. Caps are fractions of
/// what CUDA reports; the idle available figure is the smaller and honest
/// one for what a run and a server can take together.
pub fn pool_budget_centi(k: &Knowledge) -> u64 {
    crate::calc::budget::nominal(k).centi_gb
}

/// Recommend keep or stop for each process, for a run that needs `need`
/// bytes (when known).
pub fn assess(processes: &[Process], need_bytes: Option<f64>, k: &Knowledge) -> PoolReport {
    assess_beside(processes, need_bytes, 0, k)
}

/// The same, with `beside_centi` hundredths of a GB already held by what
/// has no cap (a trainer's or an uncapped server's memory now): the caps
/// and the run share what is left, as the verdict counts it.
pub fn assess_beside(
    processes: &[Process],
    need_bytes: Option<f64>,
    beside_centi: u64,
    k: &Knowledge,
) -> PoolReport {
    let pool = pool_bytes(k);
    let budget_centi = pool_budget_centi(k).saturating_sub(beside_centi);
    let near = k.spark("near-capacity cap").value;
    let small = k.spark("small capped job");
    let coexist = k.spark("coexisting server cap").value;
    let need_centi = need_bytes.map(centi_gb_up);
    let has_vllm_server = processes.iter().any(|p| p.kind == ProcessKind::Vllm);
    let has_ollama_runner = processes
        .iter()
        .any(|p| p.kind == ProcessKind::OllamaRunner);

    // Capped servers, smallest cap first: keep them while the caps and the
    // run fit the pool.
    let mut verdicts: Vec<ProcessVerdict> = processes
        .iter()
        .map(|p| {
            let (fraction, cap_text) = cap_of(p, k);
            let cap_centi = fraction.map(|f| centi_gb_up(f * pool));
            let heavy = match p.kind {
                ProcessKind::Unknown => false,
                ProcessKind::VllmEngine => !has_vllm_server,
                _ => fraction.is_none_or(|f| f >= near),
            };
            ProcessVerdict {
                process: p.clone(),
                cap_fraction: fraction,
                cap_centi_gb: cap_centi,
                cap_text,
                heavy,
                recommendation: Recommendation::Keep,
                reason: String::new(),
                why: String::new(),
            }
        })
        .collect();

    let mut kept_caps: u64 = 0;
    let mut order: Vec<usize> = (0..verdicts.len()).collect();
    order.sort_by_key(|&i| verdicts[i].cap_centi_gb.unwrap_or(u64::MAX));
    for i in order {
        let v = &mut verdicts[i];
        let pid = v.process.pid;
        let listed = processes.iter().filter(|p| p.pid == pid).count();
        let (rec, reason, why) = match v.process.kind {
            // `kill 0` signals the owner's whole process group and pid 1 is
            // init: never a stop, whatever the listing says.
            _ if pid <= 1 => (
                Recommendation::NotJudged,
                format!("pid {pid} is not a process to stop (a signal to pid 0 reaches your whole process group; pid 1 is init); the listing looks damaged, so paste a fresh `ps aux`"),
                format!("pid {pid}: never signalled"),
            ),
            // The same pid twice is a listing pasted twice or mangled:
            // flagged once, judged never.
            _ if listed > 1 => (
                Recommendation::NotJudged,
                format!("pid {pid} appears {listed} times in the listing, so I cannot tell which line is the process; paste one fresh `ps aux`"),
                format!("pid {pid} listed {listed}×: not judged"),
            ),
            ProcessKind::Unknown => (
                Recommendation::Keep,
                "not recognised; headroom does not guess. Check what it is before a full-pool run".to_string(),
                "not recognised: check it".to_string(),
            ),
            // Set after the loop, from its server's recommendation.
            ProcessKind::VllmEngine if has_vllm_server => {
                (Recommendation::Keep, String::new(), String::new())
            }
            // A trainer in the listing may be the very run being planned:
            // never proposed for stopping; the owner knows which it is.
            ProcessKind::Trainer => (
                Recommendation::Keep,
                "a training process: it may be the run you are planning, so I never propose stopping it. If it is another job, it competes for the same pool with no cap, and only you can tell which it is".to_string(),
                "a trainer: yours?".to_string(),
            ),
            _ if v.heavy => (
                Recommendation::Stop,
                match v.cap_fraction {
                    Some(f) => format!(
                        "capped at {} of the pool, near capacity (≥ {}): one heavy job at a time, so stop it before a long or full-pool run",
                        plain(f),
                        plain(near)
                    ),
                    None if v.process.kind == ProcessKind::OllamaServer && !has_ollama_runner => "no model is loaded (no Ollama runner in the listing), so it holds little now; but it loads a model with no cap on the next request, so stop it, or make sure nothing calls it, before a long or full-pool run (`ollama ps` shows what it has loaded)".to_string(),
                    None => "uncapped: it can grow into the memory your run needs and evict its pages silently, so stop it before a long or full-pool run".to_string(),
                },
                match v.cap_fraction {
                    Some(f) if v.process.kind == ProcessKind::Vllm
                        && v.process.utilization_flag.is_none() =>
                    {
                        format!("no flag: vLLM's default {} ≥ {}", plain(f), plain(near))
                    }
                    Some(f) => format!("cap {} ≥ {}", plain(f), plain(near)),
                    None if v.process.kind == ProcessKind::OllamaServer && !has_ollama_runner => {
                        "no model is loaded; loads uncapped".to_string()
                    }
                    None => "uncapped: can grow".to_string(),
                },
            ),
            _ => {
                let cap = v.cap_centi_gb.unwrap_or(0);
                match need_centi {
                    Some(need) if kept_caps + cap + need <= budget_centi => {
                        kept_caps += cap;
                        let small_pair = need as f64 / 100.0 < small.value
                            && v.cap_fraction.is_some_and(|f| f <= coexist);
                        (
                            Recommendation::Keep,
                            if small_pair {
                                format!(
                                    "a small run (under {} GB) beside a server capped at ≤ {} coexists (seed rule); caps kept so far {} GB + your {} GB fit the {} GB pool budget",
                                    plain(small.value),
                                    plain(coexist),
                                    show_centi(kept_caps),
                                    show_centi(need),
                                    show_centi(budget_centi)
                                )
                            } else {
                                format!(
                                    "capped: caps kept so far {} GB + your {} GB fit the {} GB pool budget",
                                    show_centi(kept_caps),
                                    show_centi(need),
                                    show_centi(budget_centi)
                                )
                            },
                            "caps + your run fit".to_string(),
                        )
                    }
                    Some(need) => (
                        Recommendation::Stop,
                        format!(
                            "its cap {} GB + caps kept {} GB + your {} GB exceed the {} GB pool budget",
                            show_centi(cap),
                            show_centi(kept_caps),
                            show_centi(need),
                            show_centi(budget_centi)
                        ),
                        "cap + your run > budget".to_string(),
                    ),
                    None => {
                        kept_caps += cap;
                        (
                            Recommendation::Keep,
                            "capped below the near-capacity line; whether your run fits beside it depends on its size: tell me the run or give --need".to_string(),
                            "capped; your run's size unknown".to_string(),
                        )
                    }
                }
            }
        };
        v.recommendation = rec;
        v.reason = reason;
        v.why = why;
    }
    // The engine child shares its server's fate: one recommendation for both.
    if let Some((server_pid, server_rec)) = verdicts
        .iter()
        .find(|v| v.process.kind == ProcessKind::Vllm)
        .map(|v| (v.process.pid, v.recommendation))
    {
        for v in verdicts
            .iter_mut()
            .filter(|v| v.process.kind == ProcessKind::VllmEngine && v.process.pid > 1)
        {
            v.recommendation = server_rec;
            v.reason = format!(
                "part of the vLLM server (pid {server_pid}), so it goes with the server: stopping the server stops it"
            );
            v.why = format!("goes with pid {server_pid}");
        }
    }
    // A pid listed twice is shown once, with its flag.
    let mut seen = std::collections::BTreeSet::new();
    verdicts.retain(|v| seen.insert(v.process.pid));
    PoolReport {
        damaged_pids: Vec::new(),
        processes: verdicts,
        need_centi_gb: need_centi,
        pool_budget_centi_gb: budget_centi,
        kept_caps_centi_gb: kept_caps,
        pool_text: if beside_centi > 0 {
            format!(
                "{}; less {} GB that processes without a cap hold now (your listing) = {} GB",
                pool_budget_text(k),
                show_centi(beside_centi),
                show_centi(budget_centi)
            )
        } else {
            pool_budget_text(k)
        },
    }
}

/// How the pool budget is made, with its sources, after what vLLM's
/// fraction is a fraction of.
pub fn pool_budget_text(k: &Knowledge) -> String {
    format!(
        "vLLM's fraction applies to the {} GiB CUDA reports ({}); {}",
        plain(k.spark("memory CUDA reports").value),
        k.spark("memory CUDA reports").cite,
        budget_text(k)
    )
}

/// "the pool budget is an idle Spark's 115 GiB available … = 119.48 GB".
pub fn budget_text(k: &Knowledge) -> String {
    let idle = k.spark("idle available memory");
    let reserve = k.spark("OS and driver reserve");
    let available = crate::calc::units::centi_gb_down(idle.value * GIB);
    format!(
        "the pool budget is an idle Spark's {} GiB available ({}) = {} GB, minus the {} GB OS/driver reserve ({}) = {} GB",
        plain(idle.value),
        idle.cite,
        show_centi(available),
        plain(reserve.value),
        reserve.cite,
        show_centi(pool_budget_centi(k))
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::ps::parse_ps;

    fn report(listing: &str, need_gb: Option<f64>) -> PoolReport {
        assess(
            &parse_ps(listing).unwrap(),
            need_gb.map(|g| g * 1e9),
            Knowledge::embedded(),
        )
    }

    const VLLM_HALF: &str = "owner 412233 3.1 1.2 48211320 1598232 pts/2 Sl+ 14:02 0:41 /home/owner/venv/bin/python3 /home/owner/venv/bin/vllm serve Qwen/Qwen3-8B --gpu-memory-utilization 0.5";

    #[test]
    fn vllm_at_half_beside_a_small_lora_run_coexists() {
        let r = report(VLLM_HALF, Some(3.2));
        assert_eq!(r.processes[0].recommendation, Recommendation::Keep);
        assert!(r.processes[0].reason.contains("coexists"));
        assert_eq!(r.processes[0].cap_centi_gb, Some(6534));
    }

    #[test]
    fn vllm_at_half_beside_a_run_that_needs_the_rest_must_stop() {
        let r = report(VLLM_HALF, Some(70.0));
        assert_eq!(r.processes[0].recommendation, Recommendation::Stop);
    }

    #[test]
    fn uncapped_ollama_and_a_flagless_vllm_stop_before_a_full_pool_run() {
        let listing = "ollama 1259539 0.0 0.1 12277000 350756 ? Ssl Nov20 0:57 /usr/local/bin/ollama serve\nowner 415002 2.0 0.9 40211320 1201832 pts/4 Sl+ 14:20 0:12 python3 -m vllm.entrypoints.openai.api_server --model x";
        let r = report(listing, Some(100.0));
        assert!(
            r.processes
                .iter()
                .all(|p| p.recommendation == Recommendation::Stop)
        );
        assert!(r.processes[1].cap_text.contains("vLLM's default 0.9"));
        assert_eq!(r.processes[0].cap_centi_gb, None);
    }

    #[test]
    fn pid_zero_one_and_duplicated_pids_are_never_judged() {
        let ollama =
            "ollama 0 0.0 0.1 12277000 350756 ? Ssl Nov20 0:57 /usr/local/bin/ollama serve";
        let r = report(ollama, Some(100.0));
        assert_eq!(r.processes[0].recommendation, Recommendation::NotJudged);
        assert!(r.processes[0].reason.contains("process group"));
        let init = ollama.replacen(" 0 ", " 1 ", 1);
        assert_eq!(
            report(&init, Some(100.0)).processes[0].recommendation,
            Recommendation::NotJudged
        );
        let twice = format!("{VLLM_HALF}\n{}", VLLM_HALF.replace("0.5", "0.9"));
        let r = report(&twice, Some(70.0));
        assert_eq!(r.processes.len(), 1, "shown once");
        assert_eq!(r.processes[0].recommendation, Recommendation::NotJudged);
        assert!(r.processes[0].reason.contains("appears 2 times"));
    }

    #[test]
    fn unknown_lines_are_kept_and_said_to_be_unknown() {
        let r = report(
            "owner 416100 0.3 0.2 1234500 250112 pts/8 Sl+ 14:40 0:01 python3 serve_embeddings.py",
            Some(10.0),
        );
        assert_eq!(r.processes[0].process.kind, ProcessKind::Unknown);
        assert_eq!(r.processes[0].recommendation, Recommendation::Keep);
    }
}
