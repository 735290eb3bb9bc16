//! Reads pasted `nvidia-smi` output: the box-drawn table and the
//! `--query-compute-apps` CSV.
//!
//! On GB10 memory is unified, so the table's Memory-Usage cell says
//! `Not Supported` and per-process memory is the only GPU-side figure.

use crate::extract::re;
use regex::Regex;
use serde::Serialize;
use std::sync::LazyLock;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SmiTable {
    pub driver: Option<String>,
    pub cuda: Option<String>,
    pub gpus: Vec<SmiGpu>,
    pub processes: Vec<SmiProcess>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SmiGpu {
    pub index: u32,
    pub name: String,
    pub temp_c: Option<u32>,
    pub power_w: Option<f64>,
    /// The Memory-Usage cell as printed: "Not Supported" or "1234MiB / 81920MiB".
    pub memory_text: String,
    pub memory_supported: bool,
    pub util_percent: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SmiProcess {
    pub pid: u32,
    /// "G" (graphics), "C" (compute), "C+G".
    pub kind: String,
    pub name: String,
    /// The memory cell as printed ("89093MiB", "[N/A]"); empty when cut off.
    pub memory_text: String,
    pub memory_mib: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SmiError {
    #[error("there are no GPU or process rows in the nvidia-smi table you pasted")]
    NoTableRows,
    #[error("there is no `pid, process_name, used_gpu_memory` header in what you pasted")]
    NoCsvHeader,
    #[error("`{line}` is not a row of the compute-apps CSV")]
    BadCsvRow { line: String },
}

impl SmiError {
    /// What to paste instead, for the owner.
    pub fn hint(&self) -> &'static str {
        match self {
            SmiError::NoTableRows => {
                "Run `nvidia-smi` on the Spark and paste everything it prints, from the first `+---` line to the last."
            }
            _ => {
                "Run `nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv` on the Spark and paste every line it prints (a header alone means no compute process is running)."
            }
        }
    }
}

static DRIVER: LazyLock<Regex> = LazyLock::new(|| re(r"Driver Version:\s*(\S+)"));
static CUDA: LazyLock<Regex> = LazyLock::new(|| re(r"CUDA Version:\s*(\S+)"));
/// First line of a GPU: index, name, Persistence-M.
static GPU_ROW: LazyLock<Regex> =
    LazyLock::new(|| re(r"^\|\s*(\d+)\s+(.+?)\s+(?:On|Off|N/A)\s+\|"));
static TEMP: LazyLock<Regex> = LazyLock::new(|| re(r"\b(\d+)C\b"));
static POWER: LazyLock<Regex> = LazyLock::new(|| re(r"(\d+(?:\.\d+)?)W\s*/"));
static PERCENT: LazyLock<Regex> = LazyLock::new(|| re(r"(\d+)%"));
static MEM_USAGE: LazyLock<Regex> = LazyLock::new(|| re(r"\d+\s*MiB\s*/\s*\d+\s*MiB"));
/// GPU [GI CI] PID Type Name [Memory]; the memory may be cut off with the row.
static PROC_ROW: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^\|\s*\d+\s+(?:\S+\s+\S+\s+)?(\d+)\s+([CGM](?:\+[CGM])?)\s+(.+?)(?:\s+(\d+\s*MiB|N/A|\[N/A\]|Not Supported))?\s*\|?\s*$",
    )
});
static MIB: LazyLock<Regex> = LazyLock::new(|| re(r"^\[?(\d+)\s*MiB\]?$"));
/// A CSV header cell: `pid`, `used_gpu_memory [MiB]`.
static CSV_HEADER_CELL: LazyLock<Regex> = LazyLock::new(|| re(r"^[a-z_.]+(?:\s*\[[^\]]*\])?$"));

fn is_border(line: &str) -> bool {
    line.trim_start().starts_with("+---") || line.trim_start().starts_with("|===")
}

fn is_processes_title(line: &str) -> bool {
    line.trim_start()
        .strip_prefix('|')
        .is_some_and(|r| r.trim_start().starts_with("Processes:"))
}

/// True when the text looks like the `nvidia-smi` table.
pub fn looks_like_smi_table(text: &str) -> bool {
    let bordered = text.lines().any(is_border);
    text.lines()
        .any(|l| l.trim_start().starts_with("| NVIDIA-SMI"))
        || bordered && (text.contains("NVIDIA-SMI") || text.lines().any(is_processes_title))
}

fn mib_of(cell: &str) -> Option<u64> {
    MIB.captures(cell.trim())?[1].parse().ok()
}

pub fn parse_smi_table(text: &str) -> Result<SmiTable, SmiError> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let mut gpus = Vec::new();
    let mut processes = Vec::new();
    let mut in_processes = false;
    for (i, line) in lines.iter().enumerate() {
        if is_processes_title(line) {
            in_processes = true;
        } else if in_processes {
            if let Some(c) = PROC_ROW.captures(line) {
                let Ok(pid) = c[1].parse::<u32>() else {
                    continue;
                };
                let memory_text = c.get(4).map_or("", |m| m.as_str()).to_string();
                processes.push(SmiProcess {
                    pid,
                    kind: c[2].to_string(),
                    name: c[3].trim().to_string(),
                    memory_mib: mib_of(&memory_text),
                    memory_text,
                });
            }
        } else if let Some(c) = GPU_ROW.captures(line) {
            let Ok(index) = c[1].parse::<u32>() else {
                continue;
            };
            // The second line of the GPU block: Fan Temp Perf Pwr | Memory | Util.
            let cells: Vec<&str> = lines
                .get(i + 1)
                .filter(|l| !is_border(l))
                .map_or(vec![], |l| l.split('|').map(str::trim).collect());
            let cell = |n: usize| cells.get(n).copied().unwrap_or("");
            let first = |re: &Regex, s: &str| -> Option<u32> { re.captures(s)?[1].parse().ok() };
            let memory_text = cell(2).to_string();
            gpus.push(SmiGpu {
                index,
                name: c[2].trim().to_string(),
                temp_c: first(&TEMP, cell(1)),
                power_w: POWER.captures(cell(1)).and_then(|c| c[1].parse().ok()),
                memory_supported: MEM_USAGE.is_match(&memory_text),
                memory_text,
                util_percent: first(&PERCENT, cell(3)),
            });
        }
    }
    if gpus.is_empty() && processes.is_empty() {
        return Err(SmiError::NoTableRows);
    }
    let version = |re: &Regex| re.captures(text).map(|c| c[1].to_string());
    Ok(SmiTable {
        driver: version(&DRIVER),
        cuda: version(&CUDA),
        gpus,
        processes,
    })
}

fn csv_header(line: &str) -> Option<Vec<String>> {
    let cells: Vec<String> = line
        .split(',')
        .map(|c| c.trim().to_ascii_lowercase())
        .collect();
    let ok = cells.iter().all(|c| CSV_HEADER_CELL.is_match(c)) && cells.iter().any(|c| c == "pid");
    ok.then_some(cells)
}

/// True when the text has a `--query-compute-apps` CSV header with `pid`.
pub fn looks_like_compute_apps(text: &str) -> bool {
    text.lines().any(|l| csv_header(l).is_some())
}

pub fn parse_compute_apps(text: &str) -> Result<Vec<SmiProcess>, SmiError> {
    let mut lines = text.lines().map(str::trim);
    let header = lines
        .by_ref()
        .find_map(csv_header)
        .ok_or(SmiError::NoCsvHeader)?;
    let col = |names: &[&str]| {
        header
            .iter()
            .position(|h| names.iter().any(|n| h.starts_with(*n)))
    };
    let (Some(pid_col), name_col, mem_col) = (
        col(&["pid"]),
        col(&["process_name", "name"]),
        col(&["used_gpu_memory", "used_memory"]),
    ) else {
        return Err(SmiError::NoCsvHeader);
    };
    let mut out = Vec::new();
    // Lines without a comma are a prompt or a note, not rows.
    for line in lines.filter(|l| l.contains(',')) {
        let cells: Vec<&str> = line.split(',').map(str::trim).collect();
        let cell = |c: Option<usize>| c.and_then(|c| cells.get(c)).copied().unwrap_or("");
        let pid = cell(Some(pid_col))
            .parse::<u32>()
            .map_err(|_| SmiError::BadCsvRow {
                line: line.to_string(),
            })?;
        let memory_text = cell(mem_col).to_string();
        out.push(SmiProcess {
            pid,
            kind: "C".to_string(),
            name: cell(name_col).to_string(),
            // `nounits` prints a bare number; the header still says [MiB].
            memory_mib: mib_of(&memory_text).or_else(|| memory_text.parse().ok()),
            memory_text,
        });
    }
    Ok(out)
}

crate::extract::reading::paste_reader!(
    /// The registry's reader for the nvidia-smi table.
    SmiTablePaste,
    "the nvidia-smi table",
    looks_like_smi_table,
    parse_smi_table => crate::extract::reading::Reading::SmiTable
);

crate::extract::reading::paste_reader!(
    /// The registry's reader for compute-apps CSV.
    ComputeAppsPaste,
    "`nvidia-smi --query-compute-apps` output",
    looks_like_compute_apps,
    parse_compute_apps => crate::extract::reading::Reading::ComputeApps
);

#[cfg(test)]
mod tests {
    use super::*;

    const CUT_OFF: &str = "+-----------------------------------------------------------------------------------------+
| NVIDIA-SMI 580.159.03             Driver Version: 580.159.03     CUDA Version: 13.0     |
+-----------------------------------------+------------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |
| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |
|                                         |                        |               MIG M. |
|=========================================+========================+======================|
|   0  NVIDIA GB10                    On  |   0000000F:01:00.0 Off |                  N/A |
| N/A   46C    P0             10W /  N/A  | Not Supported          |      0%      Default |
|                                         |                        |                  N/A |
+-----------------------------------------+------------------------+----------------------+

+-----------------------------------------------------------------------------------------+
| Processes:                                                                              |
|  GPU   GI   CI              PID   Type   Process name                        GPU Memory |
|        ID   ID                                                               Usage      |
|=========================================================================================|
|    0   N/A  N/A          329657      G   /usr/lib/xorg/Xorg                       43MiB |
|    0   N/A  N/A          329691      G   /usr/bin/gnome-shell                     17MiB |
";

    #[test]
    fn real_stress_table_on_gb10() {
        let text = include_str!("../../tests/fixtures/nvidia-smi-table-gb10-stress-105w.txt");
        assert!(looks_like_smi_table(text));
        let t = parse_smi_table(text).unwrap();
        assert_eq!(t.driver.as_deref(), Some("580.95.05"));
        assert_eq!(t.cuda.as_deref(), Some("13.0"));
        let g = &t.gpus[0];
        assert_eq!((g.index, g.name.as_str()), (0, "NVIDIA GB10"));
        assert_eq!(
            (g.temp_c, g.power_w, g.util_percent),
            (Some(74), Some(105.0), Some(96))
        );
        assert_eq!(g.memory_text, "Not Supported");
        assert!(!g.memory_supported);
        let p = &t.processes[0];
        assert_eq!(
            (p.pid, p.kind.as_str(), p.name.as_str()),
            (452072, "C", "./dgx-spark-stress")
        );
        assert_eq!(p.memory_mib, Some(87012));
    }

    #[test]
    fn real_vllm_table_and_a_cut_off_one() {
        let text = include_str!("../../tests/fixtures/nvidia-smi-table-gb10-vllm.txt");
        let t = parse_smi_table(text).unwrap();
        assert_eq!(t.processes.len(), 3);
        assert_eq!(t.processes[2].name, "VLLM::EngineCore");
        assert_eq!(t.processes[2].memory_mib, Some(89093));
        assert!(looks_like_smi_table(CUT_OFF));
        let t = parse_smi_table(CUT_OFF).unwrap();
        assert_eq!(t.gpus.len(), 1);
        assert_eq!(t.gpus[0].power_w, Some(10.0));
        assert_eq!(t.processes.len(), 2);
        assert_eq!(t.processes[1].memory_text, "17MiB");
        // A row cut mid-line keeps what it has.
        let t =
            parse_smi_table("| Processes: |\n|    0   N/A  N/A   77      C   python3 tra").unwrap();
        assert_eq!((t.processes[0].pid, t.processes[0].memory_mib), (77, None));
    }

    #[test]
    fn a_supported_memory_cell() {
        let text = "| NVIDIA-SMI 550.54 |\n|   0  NVIDIA H100 80GB HBM3          On  | 00000000:18:00.0 Off |                    0 |\n| N/A   35C    P0             72W /  700W |   1234MiB /  81559MiB |      3%      Default |\n";
        let g = &parse_smi_table(text).unwrap().gpus[0];
        assert_eq!(g.name, "NVIDIA H100 80GB HBM3");
        assert!(g.memory_supported);
        assert_eq!(g.memory_text, "1234MiB /  81559MiB");
    }

    #[test]
    fn real_compute_apps_csv_after_a_prompt() {
        let text = include_str!("../../tests/fixtures/nvidia-smi-compute-apps-gb10.txt");
        assert!(looks_like_compute_apps(text));
        assert!(!looks_like_smi_table(text));
        let p = parse_compute_apps(text).unwrap();
        assert_eq!(p.len(), 4);
        assert_eq!(p[0].pid, 2510);
        assert!(p[0].name.ends_with("llama-server"));
        assert_eq!(
            (p[0].memory_text.as_str(), p[0].memory_mib),
            ("21817 MiB", Some(21817))
        );
        assert_eq!(p[1].kind, "C");
    }

    #[test]
    fn compute_apps_without_memory_and_bad_input() {
        let text = "pid, process_name, used_gpu_memory [MiB]\n577729, VLLM::EngineCore, [N/A]\n9, x, [Not Supported]\n";
        let p = parse_compute_apps(text).unwrap();
        assert_eq!(
            (p[0].memory_text.as_str(), p[0].memory_mib),
            ("[N/A]", None)
        );
        assert_eq!(p[1].memory_mib, None);
        assert_eq!(parse_compute_apps("pid, process_name\n"), Ok(vec![]));
        assert_eq!(parse_compute_apps("hello"), Err(SmiError::NoCsvHeader));
        assert!(matches!(
            parse_compute_apps("pid, used_memory [MiB]\nabc, 12 MiB"),
            Err(SmiError::BadCsvRow { .. })
        ));
        assert_eq!(parse_smi_table("+---+\n| hi |"), Err(SmiError::NoTableRows));
        assert!(!looks_like_smi_table("nvidia-smi says Not Supported"));
    }
}
