//! Which of the splitter's chunks are fetched together, as one file. The splitter makes a
//! chunk of each set of pages sharing code: ~180 chunks, a third of them under 100 bytes,
//! and the mission page needs 145. A browser pays for each module it fetches and
//! instantiates (about 2 ms here), so that page spent 260 ms on them. Merging chunks saves
//! modules at the price of bytes: a page needing one of two merged chunks fetches both. The
//! chunks are merged two groups at a time, always the pair whose merge fetches the fewest
//! extra bytes over all pages, while that is at most [`EXTRA_BYTES`]: small chunks gather,
//! large ones needed by different pages stay apart.

/// The most a merge may add to what the pages fetch, counted over all of them (before
/// wasm-opt): the mission page loads 11 files instead of 146, and no page fetches more than
/// about two fifths more bytes than it needs.
pub const EXTRA_BYTES: u64 = 48_000;

/// The groups of `chunks` (each chunk's number and size in bytes), given which chunks each
/// of `pages` needs, merged while a merge costs at most `limit` bytes: each chunk in exactly
/// one group, the chunks of a group in order, the groups in the order of their first chunk.
pub fn group(
    chunks: &[(u32, u64)],
    pages: &[Vec<u32>],
    limit: u64,
) -> Result<Vec<Vec<u32>>, String> {
    if pages.len() > 64 {
        return Err(format!(
            "{} pages: the grouping counts up to 64",
            pages.len()
        ));
    }
    // A group: the pages needing it (a bit each), its size, its chunks.
    let mut groups: Vec<(u64, u64, Vec<u32>)> = chunks
        .iter()
        .map(|&(chunk, size)| {
            let needed_by = pages
                .iter()
                .enumerate()
                .filter(|(_, needs)| needs.contains(&chunk))
                .fold(0u64, |bits, (page, _)| bits | 1 << page);
            (needed_by, size, vec![chunk])
        })
        .collect();
    // Extra bytes fetched if `a` and `b` were one file: each page needing only one of them
    // fetches the other too.
    let extra = |a: &(u64, u64, Vec<u32>), b: &(u64, u64, Vec<u32>)| {
        u64::from((a.0 & !b.0).count_ones()) * b.1 + u64::from((b.0 & !a.0).count_ones()) * a.1
    };
    loop {
        let mut cheapest: Option<(u64, usize, usize)> = None;
        for i in 0..groups.len() {
            for j in i + 1..groups.len() {
                let cost = extra(&groups[i], &groups[j]);
                if cheapest.is_none_or(|(least, _, _)| cost < least) {
                    cheapest = Some((cost, i, j));
                }
            }
        }
        let Some((_, i, j)) = cheapest.filter(|&(cost, _, _)| cost <= limit) else {
            break;
        };
        let (needed_by, size, merged) = groups.swap_remove(j);
        let into = &mut groups[i];
        into.0 |= needed_by;
        into.1 += size;
        into.2.extend(merged);
    }
    let mut groups: Vec<Vec<u32>> = groups
        .into_iter()
        .map(|(_, _, mut chunks)| {
            chunks.sort_unstable();
            chunks
        })
        .collect();
    groups.sort_unstable_by_key(|chunks| chunks[0]);
    Ok(groups)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_chunks_gather_and_large_ones_needed_apart_stay_apart() {
        // Chunks 1 and 2 are large, each needed by one page; 3, 4 and 5 are small.
        let chunks = [(1, 50_000), (2, 60_000), (3, 100), (4, 200), (5, 300)];
        let pages = [vec![1, 3, 4], vec![2, 4], vec![3, 5]];
        let groups = group(&chunks, &pages, 1_000).unwrap();
        assert_eq!(groups, [vec![1], vec![2], vec![3, 4, 5]]);
        // With no room for extra bytes, only chunks needed by the same pages merge.
        let same = [(1, 10), (2, 20), (3, 30)];
        let by_two = [vec![1, 2], vec![1, 2, 3]];
        assert_eq!(group(&same, &by_two, 0).unwrap(), [vec![1, 2], vec![3]]);
    }

    #[test]
    fn every_chunk_is_in_one_group_and_a_page_in_fewer_files() {
        let chunks: Vec<(u32, u64)> = (10..60).map(|n| (n, u64::from(n % 7) * 400)).collect();
        let pages: Vec<Vec<u32>> = (0..5)
            .map(|p| (10..60).filter(|n| (n + p) % 3 != 0).collect())
            .collect();
        let groups = group(&chunks, &pages, 2_000).unwrap();
        let mut all: Vec<u32> = groups.iter().flatten().copied().collect();
        all.sort_unstable();
        assert_eq!(all, (10..60).collect::<Vec<_>>());
        assert!(groups.windows(2).all(|w| w[0][0] < w[1][0]), "{groups:?}");
        for needs in &pages {
            let files = groups
                .iter()
                .filter(|g| g.iter().any(|c| needs.contains(c)))
                .count();
            assert!(
                files < needs.len(),
                "{files} files for {} chunks",
                needs.len()
            );
        }
    }

    #[test]
    fn nothing_to_group_and_too_many_pages() {
        assert!(group(&[], &[vec![]], 10).unwrap().is_empty());
        assert_eq!(group(&[(7, 5)], &[vec![7]], 10).unwrap(), [vec![7]]);
        let pages = vec![vec![1]; 65];
        assert!(group(&[(1, 1)], &pages, 10).unwrap_err().contains("64"));
    }
}
