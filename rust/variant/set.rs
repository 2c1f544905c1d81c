//! A set of variant definitions as read from INI documents (built-ins first, then the
//! user's), and building one variant from it: its section merged over its parents', turned
//! into a `Variant` (`def`) and its start position checked on a real board (`board`).

use super::board::VBoard;
use super::def::{build_variant, Entry, Section, Variant, VariantError};
use std::collections::HashMap;

/// Every section read from a list of documents (built-ins first, then the user's), not yet
/// turned into variants: a section is built on demand so a parent may come from any file.
#[derive(Clone, Debug, Default)]
pub struct VariantSet {
    sections: HashMap<String, Section>,
    /// Section names in the order read, per source.
    order: Vec<(String, String)>,
}

impl VariantSet {
    /// Reads documents given as (source name for messages, text).
    pub fn parse(docs: &[(String, String)]) -> Result<VariantSet, VariantError> {
        let mut set = VariantSet::default();
        for (source, text) in docs {
            let mut current: Option<String> = None;
            for (i, raw) in text.lines().enumerate() {
                let line = i + 1;
                let err = |message: String| VariantError { source: source.clone(), line, message };
                let content = raw.split(['#', ';']).next().unwrap_or("").trim();
                if content.is_empty() {
                    continue;
                }
                if let Some(rest) = content.strip_prefix('[') {
                    let Some(head) = rest.strip_suffix(']') else {
                        return Err(err(format!("section header {content:?} does not end with ']'")));
                    };
                    let (name, parent) = match head.split_once(':') {
                        Some((n, p)) => (n.trim(), Some(p.trim().to_string())),
                        None => (head.trim(), None),
                    };
                    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
                        return Err(err(format!("bad variant name {name:?}: use letters, digits, '-' and '_'")));
                    }
                    if let Some(prev) = set.sections.get(name) {
                        if prev.source == *source {
                            return Err(err(format!(
                                "variant [{name}] is defined twice (first on line {})",
                                prev.line
                            )));
                        }
                    }
                    set.sections.insert(
                        name.to_string(),
                        Section { parent, source: source.clone(), line, entries: Vec::new() },
                    );
                    set.order.retain(|(_, n)| n != name);
                    set.order.push((source.clone(), name.to_string()));
                    current = Some(name.to_string());
                    continue;
                }
                let Some((key, value)) = content.split_once('=') else {
                    return Err(err(format!("expected 'key = value' or a [section], found {content:?}")));
                };
                let Some(section) = current.as_ref().and_then(|c| set.sections.get_mut(c)) else {
                    return Err(err("a rule before the first [section]".to_string()));
                };
                let key = key.trim().to_string();
                if section.entries.iter().any(|(k, _)| *k == key) {
                    return Err(err(format!("{key} is given twice in this section")));
                }
                section.entries.push((key, Entry { value: value.trim().to_string(), source: source.clone(), line }));
            }
        }
        Ok(set)
    }

    /// The names of the sections read from one source, in file order.
    pub fn names_in(&self, source: &str) -> Vec<String> {
        self.order.iter().filter(|(s, _)| s == source).map(|(_, n)| n.clone()).collect()
    }

    /// All section names.
    pub fn names(&self) -> Vec<String> {
        self.order.iter().map(|(_, n)| n.clone()).collect()
    }

    /// Builds the variant named `name`, with its parents' rules under its own.
    pub fn build(&self, name: &str) -> Result<Variant, VariantError> {
        let Some(section) = self.sections.get(name) else {
            return Err(VariantError {
                source: "variant".into(),
                line: 0,
                message: format!("unknown variant {name:?} (known: {})", self.names().join(", ")),
            });
        };
        // The chain of sections, root first; the child's keys override the parent's.
        let mut chain = vec![section];
        let mut seen = vec![name.to_string()];
        while let Some(parent) = &chain.last().unwrap().parent {
            let child = chain.last().unwrap();
            let Some(p) = self.sections.get(parent) else {
                return Err(VariantError {
                    source: child.source.clone(),
                    line: child.line,
                    message: format!("parent variant {parent:?} is not defined"),
                });
            };
            if seen.contains(parent) {
                return Err(VariantError {
                    source: child.source.clone(),
                    line: child.line,
                    message: format!("variant {parent:?} inherits from itself"),
                });
            }
            seen.push(parent.clone());
            chain.push(p);
        }
        chain.reverse();
        let mut merged: Vec<(String, Entry)> = Vec::new();
        for s in chain {
            for (k, e) in &s.entries {
                merged.retain(|(mk, _)| mk != k);
                merged.push((k.clone(), e.clone()));
            }
        }
        let v = build_variant(name, section, &merged)?;
        // The start position must be a position of this variant.
        if let Err(e) = VBoard::from_fen(&v, &v.start_fen) {
            let (source, line) = merged
                .iter()
                .find(|(k, _)| k == "startFen")
                .map(|(_, e)| (e.source.clone(), e.line))
                .unwrap_or((section.source.clone(), section.line));
            return Err(VariantError { source, line, message: format!("startFen: {e}") });
        }
        Ok(v)
    }
}
