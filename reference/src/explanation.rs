//! Why a reference answered as it did: score tables and ring views.

/// Why a reference answered a routing question as it did.
#[derive(Debug, Clone, PartialEq)]
pub enum Explanation {
    /// Every node's score for a key, highest first: why `route` answered.
    Scores(ScoreTable),
    /// The same table for `top(key, n)`: the expected ranking is its first
    /// `n` rows.
    Top { table: ScoreTable, n: u64 },
    /// Where a key falls on a ring and the points around it.
    Ring(RingView),
    /// How many entries a ring holds: k for each node.
    Points(RingSize),
}

impl Explanation {
    /// Whether a tie decides the answer explained: two nodes with one score
    /// among the rows it is made of (the top one of a route, the first `n`
    /// of a `top` and the one after them), or two ring entries at one
    /// position near the key. Such answers are the ones a salted hash or a
    /// set's order changes; a tie further down a ranking changes none, and
    /// a case of many nodes nearly always has one there.
    pub fn tie_decides(&self) -> bool {
        !self.tied_nodes().is_empty()
    }

    /// The nodes of the tie that decides the answer explained
    /// ([`Explanation::tie_decides`]), sorted, each once; none without one.
    /// Answers decided by ties of the same nodes change together when a
    /// seed reorders those nodes; ties of other nodes change apart.
    pub fn tied_nodes(&self) -> Vec<String> {
        // Neighbours in ranking (or ring) order with one score (position).
        let rows = |rows: &[ScoreRow], answered: usize| -> Vec<String> {
            rows[..rows.len().min(answered.saturating_add(1))]
                .windows(2)
                .filter(|w| w[0].score() == w[1].score())
                .flat_map(|w| [w[0].node.clone(), w[1].node.clone()])
                .collect()
        };
        let mut nodes = match self {
            Explanation::Scores(t) => rows(&t.rows, 1),
            Explanation::Top { table: t, n } => {
                rows(&t.rows, usize::try_from(*n).unwrap_or(usize::MAX))
            }
            Explanation::Ring(r) => {
                let points: Vec<&RingPoint> = r.before.iter().chain(&r.after).collect();
                points
                    .windows(2)
                    .filter(|w| w[0].position == w[1].position)
                    .flat_map(|w| [w[0].node.clone(), w[1].node.clone()])
                    .collect()
            }
            Explanation::Points(_) => Vec::new(),
        };
        nodes.sort_unstable();
        nodes.dedup();
        nodes
    }
}

/// Why a ring holds the entries it does.
#[derive(Debug, Clone, PartialEq)]
pub struct RingSize {
    /// Points per node.
    pub k: usize,
    /// The nodes on the ring, sorted.
    pub nodes: Vec<String>,
    /// k times the number of nodes.
    pub points: usize,
}

/// The pinned scores that decided a rendezvous route.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreTable {
    /// The key routed.
    pub key: String,
    /// How a node's score is computed, e.g. `h32(node + ":" + key)`.
    pub formula: String,
    /// One row per node, highest score first, ties by smaller name.
    pub rows: Vec<ScoreRow>,
    /// The reference's choice (`None` with no nodes).
    pub winner: Option<String>,
    /// The rule that picked the winner.
    pub rule: DecidedBy,
}

impl ScoreTable {
    /// The table of `rows`, given in name order: ranked by descending score
    /// (a stable sort, so ties stay in name order), with the winner and the
    /// rule that picked it.
    pub(crate) fn ranked(key: &str, formula: &str, mut rows: Vec<ScoreRow>) -> ScoreTable {
        rows.sort_by(|a, b| b.score().total_cmp(&a.score()));
        let rule = match rows.as_slice() {
            [] => DecidedBy::NoNodes,
            [first, second, ..] if first.score() == second.score() => DecidedBy::TieSmallerName,
            _ => DecidedBy::HighestScore,
        };
        ScoreTable {
            key: key.to_owned(),
            formula: formula.to_owned(),
            winner: rows.first().map(|r| r.node.clone()),
            rows,
            rule,
        }
    }
}

/// One node's score for a key.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreRow {
    pub node: String,
    /// The exact text hashed, e.g. `"cache-1:user:1"`.
    pub hashed: String,
    pub h32: u32,
    /// The weighted score built on `h32`, in weighted challenges.
    pub weighted: Option<WeightedTerms>,
}

impl ScoreRow {
    /// The value rows are ranked by: the weighted score where there is one,
    /// else the h32.
    pub fn score(&self) -> f64 {
        self.weighted.map_or(f64::from(self.h32), |w| w.score)
    }
}

/// The steps from a node's h32 to its weighted score.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WeightedTerms {
    pub weight: f64,
    /// (h32 + 0.5) / 2^32, in (0, 1).
    pub u: f64,
    /// -ln(U), positive.
    pub neg_ln_u: f64,
    /// weight / -ln(U).
    pub score: f64,
}

/// A key's place on a consistent-hash ring.
#[derive(Debug, Clone, PartialEq)]
pub struct RingView {
    pub key: String,
    /// h32(key).
    pub position: u32,
    /// Entries on the ring in all.
    pub points: usize,
    /// A few entries just before the key's position (ring order, wrapping).
    pub before: Vec<RingPoint>,
    /// The entry the key lands on, then a few after it.
    pub after: Vec<RingPoint>,
    /// Whether no entry is at or after the key's position, so the lookup
    /// wrapped to the first entry.
    pub wrapped: bool,
}

/// One entry of a ring.
#[derive(Debug, Clone, PartialEq)]
pub struct RingPoint {
    /// Its index in ring order.
    pub index: usize,
    pub node: String,
    /// The text hashed for its position, e.g. `"A#2"`.
    pub hashed: String,
    pub position: u32,
}

/// How the winner of a route was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecidedBy {
    /// No nodes: the answer is null.
    NoNodes,
    /// One node had the strictly highest score.
    HighestScore,
    /// Several nodes shared the highest score; the smallest name won.
    TieSmallerName,
}
