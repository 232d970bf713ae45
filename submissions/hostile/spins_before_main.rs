//! Spins before the grader's driver runs: a constructor in `.init_array`
//! starts eight spinning threads pinned with the main one to a single CPU,
//! so that every thread waits for the CPU far longer than it runs, as on a
//! starved machine. Its code runs from the first instruction of the
//! program, so the wait is its own: time-limit, never the grader's fault.

#[used]
#[unsafe(link_section = ".init_array")]
static SPIN_FIRST: extern "C" fn() = spin_first;

extern "C" fn spin_first() {
    // One CPU for the whole process: its threads queue for it.
    unsafe {
        let mut set: libc_cpu_set = [0u64; 16];
        set[0] = 1;
        sched_setaffinity(0, std::mem::size_of::<libc_cpu_set>(), &set);
    }
    for _ in 0..8 {
        std::thread::spawn(|| {
            loop {
                std::hint::black_box(0u64);
            }
        });
    }
    loop {
        std::hint::black_box(0u64);
    }
}

type libc_cpu_set = [u64; 16];

unsafe extern "C" {
    fn sched_setaffinity(pid: i32, size: usize, mask: *const libc_cpu_set) -> i32;
}

const FNV_OFFSET: u32 = 2_166_136_261;
const FNV_PRIME: u32 = 16_777_619;

fn fnv(mut h: u32, bytes: &[u8]) -> u32 {
    for &b in bytes {
        h = (h ^ u32::from(b)).wrapping_mul(FNV_PRIME);
    }
    h
}

fn fmix(mut h: u32) -> u32 {
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^ (h >> 16)
}

pub fn h32(text: &str) -> u32 {
    fmix(fnv(FNV_OFFSET, text.as_bytes()))
}

pub struct Router {
    nodes: Vec<(String, u32)>,
}

impl Router {
    pub fn new(nodes: Vec<String>) -> Router {
        let mut router = Router { nodes: Vec::new() };
        for n in nodes {
            router.add(&n);
        }
        router
    }

    pub fn route(&self, key: &str) -> Option<String> {
        let mut best: Option<(&str, u32)> = None;
        for (name, state) in &self.nodes {
            let score = fmix(fnv(*state, key.as_bytes()));
            // Sorted names: a strict `>` keeps the smaller name on ties.
            if best.is_none_or(|(_, s)| score > s) {
                best = Some((name, score));
            }
        }
        best.map(|(n, _)| n.to_owned())
    }

    pub fn add(&mut self, node: &str) {
        if let Err(at) = self.nodes.binary_search_by(|(n, _)| n.as_str().cmp(node)) {
            let state = fnv(fnv(FNV_OFFSET, node.as_bytes()), b":");
            self.nodes.insert(at, (node.to_owned(), state));
        }
    }

    pub fn remove(&mut self, node: &str) {
        if let Ok(at) = self.nodes.binary_search_by(|(n, _)| n.as_str().cmp(node)) {
            self.nodes.remove(at);
        }
    }
}
