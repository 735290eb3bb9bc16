//! A stop or unload the owner asks for in their own words, in any mood
//! ("stop ollama anyway", "could I stop the reasoning one (container name
//! vllm) while I train?", "Can you unload the 35b one?"), is proposed for
//! a yes, and the yes gives the commands to stop it and to bring it back.
//! Words that keep the server, or say it is already stopped, propose none.

use crate::support::converse;

const RUN: &str = "lora llama 3.1 8b, batch 2, packing 2048\n\n";
const OLLAMA_PS: &str = "$ ollama ps\nNAME                     ID              SIZE     PROCESSOR    CONTEXT    UNTIL\nqwen3.8:27b-q4_K_M       25b843619e94    17 GB    100% GPU     16384      Forever\nbatiai/qwen3.6-35b:q6    32628719f802    30 GB    100% GPU     131072     Forever\n\n";

fn proposal_then_yes(turns: &str, asked: &str) -> (String, String) {
    let before = converse(turns);
    let proposed = converse(&format!("{turns}{asked}\n"));
    let yes = converse(&format!("{turns}{asked}\n\nyes\n"));
    let proposal = proposed
        .strip_prefix(before.as_str())
        .unwrap_or_else(|| panic!("{asked}: {proposed}"))
        .to_string();
    let answer = yes
        .strip_prefix(proposed.as_str())
        .unwrap_or_else(|| panic!("{asked}: {yes}"))
        .to_string();
    (proposal, answer)
}

#[test]
fn a_container_named_in_any_mood_is_stopped_and_started_by_that_name() {
    for (asked, name) in [
        (
            "could I stop the reasoning one (container name vllm) while I train, and start it again after?",
            "vllm",
        ),
        ("please docker stop vllm-coder for me", "vllm-coder"),
        ("can you shut down the qwen-chat container?", "qwen-chat"),
        (
            "ok, take down the container called sglang_srv",
            "sglang_srv",
        ),
    ] {
        let (proposal, answer) = proposal_then_yes(RUN, asked);
        assert!(
            proposal.contains(&format!("stop the container `{name}`")),
            "{asked}: {proposal}"
        );
        assert!(proposal.contains("yes or no"), "{asked}: {proposal}");
        // Nothing to run before the yes.
        assert!(!proposal.contains("docker stop"), "{asked}: {proposal}");
        assert!(
            answer.contains(&format!("`docker stop {name}`")),
            "{asked}: {answer}"
        );
        assert!(
            answer.contains(&format!("`docker start {name}`")),
            "{asked}: {answer}"
        );
    }
}

#[test]
fn ollama_without_a_listed_pid_is_its_service() {
    for asked in [
        "stop ollama anyway",
        "can I shut ollama down while this trains?",
        "kill ollama please",
    ] {
        let (proposal, answer) = proposal_then_yes(&format!("{RUN}{OLLAMA_PS}"), asked);
        assert!(
            proposal.contains("stop the Ollama service"),
            "{asked}: {proposal}"
        );
        assert!(
            answer.contains("`sudo systemctl stop ollama`"),
            "{asked}: {answer}"
        );
        assert!(
            answer.contains("`sudo systemctl start ollama`"),
            "{asked}: {answer}"
        );
    }
}

#[test]
fn an_unload_asked_as_a_question_by_part_of_the_name() {
    for (asked, model) in [
        (
            "Can you unload the 35b one? Nobody uses it today.",
            "batiai/qwen3.6-35b:q6",
        ),
        ("could you unload qwen3.8 for me?", "qwen3.8:27b-q4_K_M"),
    ] {
        let (proposal, answer) = proposal_then_yes(&format!("{RUN}{OLLAMA_PS}"), asked);
        assert!(
            proposal.contains(&format!("unload `{model}`")),
            "{asked}: {proposal}"
        );
        // The size in the words is the listed model's, never the run's.
        assert!(!proposal.contains("What if"), "{asked}: {proposal}");
        assert!(!proposal.contains("35B parameters"), "{asked}: {proposal}");
        assert!(
            answer.contains(&format!("`ollama stop {model}`")),
            "{asked}: {answer}"
        );
    }
}

#[test]
fn words_that_keep_the_server_or_report_a_stop_propose_none() {
    for said in [
        "can I keep ollama up without stopping it?",
        "I stopped the vllm container already",
        "I'd rather not stop ollama, it serves the team",
        "don't kill the container named vllm",
        "do I have to stop the container named vllm?",
        "should I kill ollama first?",
    ] {
        let out = converse(&format!("{RUN}{OLLAMA_PS}{said}\n"));
        assert!(!out.contains("You asked to stop"), "{said}: {out}");
        assert!(!out.contains("systemctl stop"), "{said}: {out}");
    }
}
