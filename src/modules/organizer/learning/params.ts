/**
 * The routing model's knobs, chosen on the routing set's streams (eval/organizer/routing.json),
 * never on its held-out tests: docs/organizer.md has the figures.
 */
export const ROUTING_PARAMS = {
  /** Laplace smoothing of the feature counts. */
  alpha: 0.5,
  /** The log-likelihood is divided by (features known)^temper: naive Bayes is overconfident on correlated features. */
  temper: 0.5,
  /** Weight of the model's probability in the mix with the BM25 shares. */
  learnedWeight: 0.3,
  /** BM25 mass of "none of them" in the shares, so that weak evidence cannot look certain. */
  evidence: 3,
  /** Weights of the feature kinds: character grams overlap heavily, so each says less. */
  word: 1,
  pair: 0.7,
  chars: 0.25,
  /** The bar the mix must reach to file an item (calibrated for ≥ 95% precision). */
  threshold: 0.3,
};
