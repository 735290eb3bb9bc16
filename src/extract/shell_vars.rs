//! Shell variables in a pasted launch script: `BATCH_SIZE=4` above
//! `--per_device_train_batch_size $BATCH_SIZE` is batch 4. Only the
//! script's own assignments are used (a `${X:-default}` takes its
//! default); nothing is run and the environment is never read.

use crate::extract::re;
use regex::{Captures, Regex};
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::LazyLock;

/// `NAME=value`, `export NAME="value"` on a line of its own.
static ASSIGN: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?m)^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=("[^"\n]*"|'[^'\n]*'|[^\s#]*)\s*(?:#.*)?$"#,
    )
});
/// `${NAME:-default}` inside an assigned value.
static DEFAULTED: LazyLock<Regex> = LazyLock::new(|| re(r"^\$\{\w+:?-([^}]*)\}$"));
/// `$NAME` or `${NAME}` where a value is used.
static USE: LazyLock<Regex> =
    LazyLock::new(|| re(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)\b"));

/// The script's assignments, each value unquoted (a default taken).
pub fn assignments(text: &str) -> HashMap<String, String> {
    ASSIGN
        .captures_iter(text)
        .map(|c| {
            let raw = c[2].trim_matches(['"', '\'']);
            let value = DEFAULTED
                .captures(raw)
                .map_or(raw.to_string(), |d| d[1].to_string());
            (c[1].to_string(), value)
        })
        .collect()
}

/// Does the text use one of `names` (`$BATCH_SIZE`)?
pub fn uses_any(text: &str, names: &HashMap<String, String>) -> bool {
    USE.captures_iter(text).any(|c| {
        let name = c.get(1).or_else(|| c.get(2)).map_or("", |m| m.as_str());
        names.contains_key(name)
    })
}

/// The text with every use of an assigned variable replaced by its value;
/// a variable the script never sets stays as written.
pub fn expand(text: &str) -> Cow<'_, str> {
    let vars = assignments(text);
    if vars.is_empty() {
        return Cow::Borrowed(text);
    }
    USE.replace_all(text, |c: &Captures| {
        let name = c.get(1).or_else(|| c.get(2)).map_or("", |m| m.as_str());
        vars.get(name).cloned().unwrap_or_else(|| c[0].to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_launch_script_s_variables_are_its_values() {
        let script = "MODEL=\"${MODEL_NAME_OR_PATH:-Qwen/Qwen2.5-0.5B}\"\nBATCH_SIZE=4\nBETA=0.0 # no reference\nexport LR='1e-6'\npython train.py \\\n  --model_name_or_path \"$MODEL\" \\\n  --per_device_train_batch_size $BATCH_SIZE \\\n  --beta ${BETA} --lr $LR --out $OUTPUT_DIR";
        let out = expand(script);
        assert!(
            out.contains("--model_name_or_path \"Qwen/Qwen2.5-0.5B\""),
            "{out}"
        );
        assert!(out.contains("--per_device_train_batch_size 4"), "{out}");
        assert!(out.contains("--beta 0.0 --lr 1e-6"), "{out}");
        // Unset: left as written, never guessed.
        assert!(out.contains("--out $OUTPUT_DIR"), "{out}");
        assert!(uses_any("--x $BATCH_SIZE", &assignments(script)));
        assert!(!uses_any("--x $OTHER", &assignments(script)));
        assert_eq!(expand("no variables here"), "no variables here");
    }
}
