//! Strongly connected components of a directed graph (Tarjan 1972), without recursion so
//! that graphs of thousands of nodes do not exhaust the stack.

/// The strongly connected components of the graph whose arcs are `u → w` for every `w`
/// in `successors[u]`, in the order Tarjan's algorithm completes them (every arc between
/// two components runs from a later one to an earlier one), each as its nodes in the
/// order they leave the stack.
pub fn strongly_connected_components(successors: &[Vec<usize>]) -> Vec<Vec<usize>> {
    const UNSEEN: usize = usize::MAX;
    let n = successors.len();
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut components = Vec::new();
    let mut next = 0;
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        // Each frame: a node and how many of its arcs it has followed.
        let mut frames = vec![(root, 0)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut followed)) = frames.last_mut() {
            if let Some(&w) = successors[v].get(*followed) {
                *followed += 1;
                if index[w] == UNSEEN {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    frames.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            frames.pop();
            if let Some(&(parent, _)) = frames.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                components.push(component);
            }
        }
    }
    components
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_of_a_small_graph() {
        // 0 → 1 → 2 → 0, 2 → 3, 3 → 4 → 3, 5 alone.
        let arcs = vec![vec![1], vec![2], vec![0, 3], vec![4], vec![3], vec![]];
        let mut components = strongly_connected_components(&arcs);
        for c in &mut components {
            c.sort_unstable();
        }
        assert_eq!(components, vec![vec![3, 4], vec![0, 1, 2], vec![5]]);
    }
}
