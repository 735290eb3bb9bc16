//! Short model names the catalog knows in several versions are asked
//! about, never guessed; the answer picks by its version; a parameter
//! count said beside an unknown name is the model's size.

use crate::support::converse;

#[test]
fn a_family_and_a_size_with_several_versions_is_asked_then_picked() {
    for (run, versions, answer, picked) in [
        (
            "then a qwen 32b with qlora, batch 1, 2k",
            "Qwen2.5 32B, Qwen3 32B",
            "the qwen2.5 one",
            "Qwen2.5 32B",
        ),
        (
            "qwen 32b qlora bs 1 ctx 2048",
            "Qwen2.5 32B, Qwen3 32B",
            "qwen3",
            "Qwen3 32B",
        ),
        (
            "gemma 27b lora batch 2 pack 1024",
            "Gemma 2 27B, Gemma 3 27B",
            "gemma 3 please",
            "Gemma 3 27B",
        ),
        (
            "llama 70b qlora batch 1 pack 2048",
            "Llama 3.1 70B, Llama 3.3 70B, Llama 2 70B",
            "the llama 3.3",
            "Llama 3.3 70B",
        ),
    ] {
        let out = converse(&format!("{run}\n\n{answer}\n"));
        assert!(
            out.contains(&format!("more than one version: {versions}.")),
            "{run}: {out}"
        );
        assert!(!out.contains("not in my model catalog"), "{run}: {out}");
        assert!(
            out.contains(&format!("Noted: model {picked}")),
            "{run}: {out}"
        );
    }
}

#[test]
fn a_size_that_is_not_the_candidate_s_picks_no_candidate() {
    let out = converse(
        "which is the better base, qwen2.5 7b or llama 3.1 8b?\n\nok whatever, then a qwen 32b with qlora, batch 1, 2k\n",
    );
    assert!(!out.contains("model Qwen2.5 7B"), "{out}");
    assert!(
        out.contains("more than one version: Qwen2.5 32B, Qwen3 32B."),
        "{out}"
    );
}

#[test]
fn a_parameter_count_beside_an_unknown_name_is_the_model_s_size() {
    for (turn, params) in [
        (
            "if you not know qwen1.5 it has 7.7B params. lora batch 4 pack 4096",
            "7.7B",
        ),
        (
            "trying falcon-h1 9b with lora, it has 9.1B params, batch 2 pack 2048",
            "9.1B",
        ),
        (
            "acme-lm 13b (13.4b parameters), qlora bs 1 seq 1024",
            "13.4b",
        ),
    ] {
        let out = converse(&format!("{turn}\n"));
        assert!(
            out.contains(&format!("you said \"{params} param")),
            "{turn}: {out}"
        );
        // The count stands for the model; what it lacks (its dtype) is asked.
        assert!(!out.contains("not in my model catalog"), "{turn}: {out}");
    }
    // A size that is part of the unknown name is not a count.
    let out = converse("falcon-h1 34b lora batch 1 pack 1024\n");
    assert!(out.contains("not in my model catalog"), "{out}");
}

#[test]
fn a_family_and_a_size_with_one_catalog_version_is_asked_and_yes_takes_it() {
    for (run, only) in [
        ("lora on a qwen 7b, batch 2, seq 2048", "Qwen2.5 7B"),
        ("llama 1b qlora bs 1 ctx 4k", "Llama 3.2 1B"),
        (
            "full finetune of a qwen 72b, batch 1, packing 1024",
            "Qwen2.5 72B",
        ),
    ] {
        let out = converse(&format!("{run}\n\nyes\n"));
        assert!(
            out.contains(&format!("The one my catalog has by that name is {only}")),
            "{run}: {out}"
        );
        assert!(!out.contains("not in my model catalog"), "{run}: {out}");
        assert!(
            out.contains(&format!("Noted: model {only}")),
            "{run}: {out}"
        );
        assert!(out.contains("**Verdict:"), "{run}: {out}");
    }
    // Without the yes the model stays unset and is still asked for.
    let out = converse("lora on a qwen 7b, batch 2, seq 2048\n");
    assert!(!out.contains("Noted: model"), "{out}");
    assert!(!out.contains("**Verdict:"), "{out}");
}

#[test]
fn llama_3_and_llama_3_1_are_two_catalog_models() {
    let out = converse("lora on Meta-Llama-3-8B, batch 2, seq 2048\n");
    assert!(out.contains("Noted: model Llama 3 8B"), "{out}");
    let out = converse("lora on llama 8b, batch 2, seq 2048\n");
    assert!(
        out.contains("more than one version: Llama 3.1 8B, Llama 3 8B."),
        "{out}"
    );
}
