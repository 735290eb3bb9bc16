//! The paraphrase corpus (tests/fixtures/paraphrases.tsv, written by a
//! helper who had not read the code): owner sentences in many forms, each
//! with the settings it sets, the what-if it asks, or nothing. A statement
//! is read on a fresh session; a what-if or a non-setting on a complete run
//! (where a question must change nothing).

use headroom::dialogue::absorb::absorb;
use headroom::dialogue::facts::{Facts, ModelChoice};
use headroom::dialogue::session::Session;
use headroom::extract::slots::Slot;
use headroom::knowledge::Knowledge;
use jiff::Timestamp;
use std::collections::BTreeSet;

type Pairs = BTreeSet<(String, String)>;

/// The eight settings the corpus covers, from the typed facts.
fn pairs_of(f: &Facts) -> Pairs {
    let mut out = Pairs::new();
    let mut put = |k: &str, v: String| {
        out.insert((k.to_string(), v.to_lowercase()));
    };
    if let Some(m) = &f.model {
        put(
            "model",
            match &m.value {
                ModelChoice::Catalog(name) => name.clone(),
                ModelChoice::Params(p) => format!("params {p}"),
                ModelChoice::Config { label, .. } => label.clone(),
            },
        );
    }
    if let Some(v) = &f.method {
        put("method", v.value.key().into());
    }
    if let Some(v) = &f.dtype {
        put("dtype", v.value.key().into());
    }
    if let Some(v) = &f.batch {
        put("batch", v.value.to_string());
    }
    if let Some(v) = &f.pack {
        put("pack", v.value.to_string());
    }
    if let Some(v) = &f.rank {
        put("rank", v.value.to_string());
    }
    if let Some(v) = &f.optimizer {
        put("optimizer", v.value.key().into());
    }
    if let Some(v) = &f.checkpointing {
        put("checkpointing", if v.value { "on" } else { "off" }.into());
    }
    out
}

fn pairs_of_slots(slots: &[Slot]) -> Pairs {
    let mut f = Facts::default();
    for s in slots {
        let found = headroom::extract::slots::Found {
            slot: s.clone(),
            words: String::new(),
        };
        let _ = f.absorb(&found, Timestamp::UNIX_EPOCH);
    }
    pairs_of(&f)
}

fn expected(spec: &str) -> Pairs {
    let mut out = Pairs::new();
    let mut rest = spec.trim();
    while !rest.is_empty() {
        if let Some(model) = rest.strip_prefix("model=") {
            out.insert(("model".into(), model.trim().to_lowercase()));
            break;
        }
        let (token, tail) = rest.split_once(' ').unwrap_or((rest, ""));
        let (k, v) = token.split_once('=').expect("key=value");
        out.insert((k.into(), v.to_lowercase()));
        rest = tail.trim_start();
    }
    out
}

/// A run complete in every slot the corpus covers, with values no corpus
/// line uses as its answer often.
const BASE: &str = "Phi-4 14B, full fine-tune, fp32, batch 3, packing 3000, rank 5, sgd, gradient checkpointing on";

fn complete_session(k: &Knowledge) -> Session {
    let mut s = Session::default();
    absorb(&mut s, BASE, Timestamp::UNIX_EPOCH, k);
    s
}

#[test]
fn the_paraphrase_corpus() {
    let k = Knowledge::embedded();
    let text =
        std::fs::read_to_string(crate::support::repo().join("tests/fixtures/paraphrases.tsv"))
            .unwrap();
    let base = complete_session(k);
    assert_eq!(
        pairs_of(&base.facts).len(),
        8,
        "the base run: {:?}",
        pairs_of(&base.facts)
    );
    let (mut total, mut failures) = (0, Vec::new());
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let (sentence, spec) = line.split_once('\t').expect("sentence<TAB>expected");
        total += 1;
        let got = if let Some(want) = spec.strip_prefix("set:") {
            let mut s = Session::default();
            let out = absorb(&mut s, sentence, Timestamp::UNIX_EPOCH, k);
            let set = pairs_of(&s.facts);
            let asked = pairs_of_slots(
                &out.what_if
                    .iter()
                    .map(|f| f.slot.clone())
                    .collect::<Vec<_>>(),
            );
            (expected(want) == set && asked.is_empty())
                .then_some(())
                .ok_or(format!("set {set:?}, what-if {asked:?}"))
        } else {
            let mut s = base.clone();
            let out = absorb(&mut s, sentence, Timestamp::UNIX_EPOCH, k);
            let changed: Pairs = pairs_of(&s.facts)
                .difference(&pairs_of(&base.facts))
                .cloned()
                .collect();
            let asked = pairs_of_slots(
                &out.what_if
                    .iter()
                    .map(|f| f.slot.clone())
                    .collect::<Vec<_>>(),
            );
            let want = spec
                .strip_prefix("whatif:")
                .map(expected)
                .unwrap_or_default();
            (changed.is_empty() && asked == want)
                .then_some(())
                .ok_or(format!("changed {changed:?}, what-if {asked:?}"))
        };
        if let Err(why) = got {
            failures.push(format!("{sentence:?} (want {spec}): {why}"));
        }
    }
    assert!(total >= 300, "{total} sentences");
    // The floor: every sentence read as its author meant it.
    assert!(
        failures.is_empty(),
        "{} of {total} sentences misread:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
