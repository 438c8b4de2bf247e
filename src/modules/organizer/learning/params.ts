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
  /** Weight of the word vectors' probability (semantic.ts) in the mix, when the text has a known word and no sentence encoder is loaded. */
  semanticWeight: 0.3,
  /** Temperature of the softmax over the projects' cosines: lower is more decided. */
  semanticTemperature: 0.05,
  /** The cosine at which "none of the projects" competes in that softmax. */
  semanticFloor: 0.4,
  /** A word's weight in a text's vector is log(1 + rank / rankScale): rarer words say more. */
  rankScale: 500,
  /**
   * A project's nearness in meaning mixes the cosine to its nearest titles with the cosine to its
   * prototype (the mean of its titles' and its name's vectors) at this weight: the prototype is what
   * the project is about, the nearest titles what it holds that is most alike.
   */
  prototypeWeight: 0.7,
  /**
   * The confidence is the best project's mix minus this share of the runner-up's (the Inbox
   * included): two projects both near the text are less sure than one (decision 0058).
   */
  margin: 0.5,
  /**
   * The sentence encoder (sentence-vectors.ts), when it is loaded, replaces the word vectors: its
   * probability weighs this much in the mix (decision 0062).
   */
  sentenceWeight: 0.5,
  /** Its softmax's temperature and the cosine of "none of them" (its cosines have their own scale: unrelated short texts are near 0.2–0.4). */
  sentenceTemperature: 0.05,
  sentenceFloor: 0.45,
  /** Its prototype's share in a project's nearness, as for the word vectors. */
  sentencePrototypeWeight: 0.7,
  /** The encoder reads a project's latest this many titles (and its name): a heavy user's 2,000 would take seconds. */
  sentenceTitles: 30,
  /**
   * Nearness in meaning that files on its own, without a telling shared word (issue 47: one shared
   * generic verb is not enough): the project's share of the meaning softmax.
   */
  meaningAlone: 0.5,
  /** The bar the confidence must reach to file an item (calibrated for ≥ 95% precision on cases.json). */
  threshold: 0.2,
};
