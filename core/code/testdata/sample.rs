use std::collections::HashMap;

/// The most names kept.
pub const LIMIT: usize = 40;

static GREETING: &str = "hello";

/// A store of names.
pub struct Store {
    names: Vec<String>,
    seen: HashMap<String, usize>,
}

pub trait Greeter {
    fn greet(&self, name: &str) -> String;
}

impl Store {
    /// Makes an empty store.
    pub fn new() -> Self {
        Store { names: Vec::new(), seen: HashMap::new() }
    }

    /// Adds a name, cut to LIMIT, and counts how often it was seen.
    pub fn add(&mut self, name: &str) -> usize {
        let name = if name.len() > LIMIT { &name[..LIMIT] } else { name };
        self.names.push(name.to_string());
        if self.names.len() > 10 {
            self.names.remove(0);
        }
        let n = self.seen.entry(name.to_string()).or_insert(0);
        *n += 1;
        *n
    }
}

impl Greeter for Store {
    fn greet(&self, name: &str) -> String {
        format!("{} {}", GREETING, name)
    }
}

pub enum Mode {
    Plain,
    Loud,
}
