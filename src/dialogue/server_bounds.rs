//! "what do I change?" after a vLLM server was killed for memory with no
//! log of its own read: the two bounds on its `--gpu-memory-utilization`
//! on this pool (what the kernel can hand over, what its weights need),
//! each with its arithmetic, then the next step.

use crate::calc::units::{GIB, centi_gb_down, plain, show_centi};
use crate::dialogue::session::Session;
use crate::knowledge::Knowledge;

/// The bounds, with the model's size when the owner said it ("the model
/// takes about 74 GiB").
pub fn fraction_bounds(session: &Session, k: &Knowledge) -> String {
    let cuda_gib = k.spark("memory CUDA reports").value;
    let cuda_centi = centi_gb_down(cuda_gib * GIB);
    let (budget, basis) = match &session.facts.free {
        Some(f) => (
            crate::calc::budget::from_free(&f.value.reading, k).centi_gb,
            "your `free` paste less the reserve".to_string(),
        ),
        None => (
            crate::calc::budget::nominal(k).centi_gb,
            "an idle Spark's, no `free -g` yet".to_string(),
        ),
    };
    // Two decimals, rounded down: the server must not ask for more.
    let top = (budget * 100 / cuda_centi) as f64 / 100.0;
    let mut md = format!(
        "With vLLM alone on the box, its `--gpu-memory-utilization` has two bounds on this pool:\n\n- at most {}: the pool budget {} GB ({basis}) / {} GB (the {} GiB CUDA reports on a GB10, {}) = {} (rounded down). Above it vLLM asks for more than the kernel can hand over; it allocates its KV cache right after the weights load, which is where a fraction too high for the box dies.",
        plain(top),
        show_centi(budget),
        show_centi(cuda_centi),
        plain(cuda_gib),
        k.spark("memory CUDA reports").cite,
        plain(top),
    );
    if let Some(held) = &session.held_said {
        let weights_gib = held.value.1 as f64 / 100.0 * 1e9 / GIB;
        let floor = (weights_gib / cuda_gib * 100.0).ceil() / 100.0;
        md.push_str(&format!(
            "\n- at least {}: the weights' {} GB ({:.2} GiB, you said \"{}\") / {} GiB = {} (rounded up). At or below it the weights alone fill the fraction and nothing is left for the KV cache.",
            plain(floor),
            show_centi(held.value.1),
            weights_gib,
            held.words,
            plain(cuda_gib),
            plain(floor),
        ));
        if floor >= top {
            md.push_str(&format!(
                "\n\nThe two bounds cross ({} ≥ {}): this model does not fit this pool with room for a KV cache; a smaller or more quantized model is the way.",
                plain(floor),
                plain(top)
            ));
            return md;
        }
    } else {
        md.push_str("\n- at least what the weights need: tell me the model's size in GiB (vLLM prints \"Model loading took … GiB\") and I will work that bound out.");
    }
    md.push_str(
        "\n\nBetween them, cap `--max-model-len` at the longest prompt you need, so the KV cache it must reserve for one sequence fits what the fraction leaves. If it still dies inside these bounds, page cache from reading the weights may be holding the pool: a flush before the relaunch is the next step (root, with vLLM stopped, and your call).",
    );
    md
}
