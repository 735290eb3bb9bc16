//! System-level memory beyond the allocator's step peak, and the other
//! moments of a run: evaluation, checkpoint save and resume. On a Spark the
//! trainer's own process memory and the allocator's reserve live in the
//! same pool as the tensors, so they count.

use super::{Sheet, Term, gb, term};
use crate::calc::setup::Method;
use crate::calc::units::{centi_gb_up, grouped, plain, show_centi};

/// Blocks the caching allocator keeps reserved when batches change length
/// every step (padded, not packed): a fitted multiple of the loss path.
pub(super) fn reserve(s: &Sheet<'_>, logits: &Term) -> Term {
    let f = s.constant("variable-length reserve copies of the loss path");
    if s.input.runtime.packed || logits.bytes == 0.0 {
        return term(
            "reserve",
            "allocator reserve (variable-length batches)",
            0.0,
            if s.input.runtime.packed {
                "batches of one fixed length (packed): no reserve for other sizes".into()
            } else {
                "no whole-logits loss path to hold in reserve".into()
            },
            f.cite.to_string(),
        );
    }
    let bytes = logits.bytes * f.value;
    term(
        "reserve",
        "allocator reserve (variable-length batches)",
        bytes,
        format!(
            "{} × the loss path {} (batches padded to their longest sample change size every step) = {}",
            plain(f.value),
            gb(logits.bytes),
            gb(bytes)
        ),
        f.cite.to_string(),
    )
}

/// The trainer process's own memory in the shared pool.
pub(super) fn host(s: &Sheet<'_>) -> Term {
    let f = s.constant("trainer process host memory");
    term(
        "host",
        "trainer process host memory",
        f.value * 1e9,
        format!(
            "{} GB (Python, CUDA and PyTorch libraries, tokenizer and dataset)",
            plain(f.value)
        ),
        f.cite.to_string(),
    )
}

/// What stays resident between steps: weights, adapter, optimizer states
/// (gradients are freed: the Trainer zeroes them with set_to_none).
/// What stays on the device through a phase, hundredths of a GB.
pub(super) fn resident_centi(terms: &[Term]) -> u64 {
    resident(terms).0
}

fn resident(terms: &[Term]) -> (u64, String) {
    let keep = [
        "weights",
        "autocast",
        "adapter",
        "optimizer",
        "multi_node",
        "reference",
        "generator",
    ];
    let parts: Vec<&Term> = terms.iter().filter(|t| keep.contains(&t.key)).collect();
    let centi = parts.iter().map(|t| t.centi_gb).sum();
    let text = parts
        .iter()
        .map(|t| format!("{} {} GB", t.label, show_centi(t.centi_gb)))
        .collect::<Vec<_>>()
        .join(" + ");
    (centi, text)
}

/// The two terms every moment of the run carries.
fn always(context: &Term, host: &Term) -> [(String, u64); 2] {
    [
        (
            format!("CUDA context {} GB", show_centi(context.centi_gb)),
            context.centi_gb,
        ),
        (
            format!("host {} GB", show_centi(host.centi_gb)),
            host.centi_gb,
        ),
    ]
}

fn phase(
    key: &'static str,
    label: &'static str,
    parts: &[(String, u64)],
    fixed: [(String, u64); 2],
    source: String,
) -> Term {
    let parts: Vec<(String, u64)> = parts.iter().cloned().chain(fixed).collect();
    let centi: u64 = parts.iter().map(|(_, c)| c).sum();
    let formula = parts
        .iter()
        .map(|(t, _)| t.clone())
        .collect::<Vec<_>>()
        .join(" + ");
    Term {
        key,
        label,
        bytes: centi as f64 * 1e7,
        centi_gb: centi,
        formula: format!("{formula} = {} GB", show_centi(centi)),
        source,
    }
}

/// Evaluation: model state, the eval batch's forward logits, context, host.
pub(super) fn eval_peak(s: &Sheet<'_>, terms: &[Term], context: &Term, host: &Term) -> Term {
    let per = s.constant("eval logits bytes per element");
    let input = s.input;
    let eval_batch = input.runtime.eval_batch;
    let vocab = input.model.arch.vocab;
    let logits = if input.loss == crate::calc::setup::Loss::Fused {
        0.0
    } else {
        eval_batch as f64 * input.pack as f64 * vocab as f64 * per.value
    };
    let (kept, kept_text) = resident(terms);
    phase(
        "eval",
        "evaluation peak",
        &[
            (kept_text, kept),
            (
                format!(
                    "eval logits: eval batch {eval_batch} × {} tokens × vocab {} × {} B = {}",
                    grouped(input.pack),
                    grouped(vocab),
                    plain(per.value),
                    gb(logits)
                ),
                centi_gb_up(logits),
            ),
        ],
        always(context, host),
        format!(
            "{}; per_device_eval_batch_size from the trainer's defaults (knowledge/frameworks.md)",
            per.cite
        ),
    )
}

/// Checkpoint save: full fine-tuning writes the weights shard by shard from
/// a host copy (the same pool); LoRA writes only the adapter.
pub(super) fn save_peak(
    s: &Sheet<'_>,
    terms: &[Term],
    weights: &Term,
    context: &Term,
    host: &Term,
) -> Term {
    let shard = s.constant("safetensors shard bytes");
    let (kept, kept_text) = resident(terms);
    let (copy, what) = if s.input.method == Method::Full {
        (
            shard.value.min(weights.bytes),
            format!(
                "one weights shard copied to host memory for writing, min({}, weights)",
                gb(shard.value)
            ),
        )
    } else {
        let adapter = terms
            .iter()
            .find(|t| t.key == "adapter")
            .map_or(0.0, |t| t.bytes);
        (
            adapter,
            "the adapter copied to host memory for writing".to_string(),
        )
    };
    phase(
        "save",
        "checkpoint-save peak",
        &[
            (kept_text, kept),
            (format!("{what} {}", gb(copy)), centi_gb_up(copy)),
        ],
        always(context, host),
        format!(
            "{}; torch.save copies optimizer tensors to host one at a time (docs/spark-memory-research.md §6)",
            shard.cite
        ),
    )
}

/// Resume: the optimizer state is read into host memory whole before it is
/// copied into the optimizer's tensors, so it is there twice for a moment.
pub(super) fn resume_peak(terms: &[Term], context: &Term, host: &Term) -> Term {
    let (kept, kept_text) = resident(terms);
    let optimizer = terms
        .iter()
        .find(|t| t.key == "optimizer")
        .map_or(0, |t| t.centi_gb);
    phase(
        "resume",
        "resume peak",
        &[
            (kept_text, kept),
            (format!("optimizer state read from the checkpoint {} GB", show_centi(optimizer)), optimizer),
        ],
        always(context, host),
        "transformers Trainer._load_optimizer_and_scheduler: torch.load of optimizer.pt, then optimizer.load_state_dict (docs/spark-memory-research.md §6)".into(),
    )
}
