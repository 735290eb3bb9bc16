//! A Python traceback's last exception: what a crash that is not an OOM
//! died of ("ImportError: Found an incompatible version of torchao …"), so
//! "is it out of memory again?" is answered from the paste, not assumed.

use crate::extract::re;
use regex::Regex;
use std::sync::LazyLock;

static EXCEPTION: LazyLock<Regex> = LazyLock::new(|| {
    re(r"^(?:[A-Za-z_][\w]*\.)*[A-Z]\w*(?:Error|Exception|Interrupt|Exit|Warning)\b(?::.*)?$")
});

/// The final exception line after the last "Traceback (most recent call
/// last):", when the text holds one.
pub fn last_exception(text: &str) -> Option<String> {
    let at = text.rfind("Traceback (most recent call last):")?;
    text[at..]
        .lines()
        .map(str::trim)
        .rfind(|l| EXCEPTION.is_match(l))
        .map(|l| l.chars().take(200).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_exception_of_the_last_traceback() {
        let t = "Traceback (most recent call last):\n  File \"x.py\", line 3, in <module>\n    main()\n  File \"/usr/lib/peft/import_utils.py\", line 143, in is_torchao_available\n    raise ImportError(\nImportError: Found an incompatible version of torchao. Found version 0.14.0+git\n";
        assert_eq!(
            last_exception(t).as_deref(),
            Some("ImportError: Found an incompatible version of torchao. Found version 0.14.0+git")
        );
        let oom = "Traceback (most recent call last):\n  File \"t.py\", line 9\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB";
        assert!(
            last_exception(oom)
                .unwrap()
                .starts_with("torch.OutOfMemoryError")
        );
        assert_eq!(last_exception("RuntimeError: no traceback above"), None);
    }
}
