// The webhook receiver contract. Implementation: src/webhooks/receiver.ts.
// One HTTP server; each partner gets its own path (/hooks/<partnerName>) so
// events are attributed without trusting the payload.

/** What the receiver answers for an attempt. 'hang' never answers (until the sender gives up). */
export type ReceiverBehaviour = { kind: 'status'; status: number } | { kind: 'hang' } | { kind: 'delay'; ms: number; status: number };

/**
 * A network fault the receiver stages itself, on every attempt for a channel until lifted: what Toxiproxy's
 * toxics do on the webhook path, where the target reaches rampart only through a public URL (a tunnel) and no
 * proxy of rampart's can stand in the way. 'reset': the connection is reset as the request arrives (reset_peer);
 * 'timeout': no answer, the connection closed after `afterMs` (timeout); 'latency': every answer held `ms` (latency).
 * A reset or timed-out attempt never reached the partner: it is not among the attempts received.
 */
export type ReceiverFault = { kind: 'reset' } | { kind: 'timeout'; afterMs: number } | { kind: 'latency'; ms: number };

export interface ReceivedEvent {
  partnerName: string;
  /** Receiver clock, ms since epoch, at arrival of the request head. */
  arrivedAt: number;
  headers: Record<string, string>;
  rawBody: Buffer;
  /** Parsed envelope when the body is JSON. */
  json: any;
  /** Event id: the envelope id (Gate) or eventId (pools), else the event-id header. */
  eventId?: string;
  eventType?: string;
  /** Signature verdict of this attempt, as a careful partner computes it. */
  verification: { ok: boolean; reason?: string };
  /** Status the receiver answered (undefined for hang). */
  answeredStatus?: number;
  /** True when an earlier attempt carried the same event id (dedupe). */
  duplicate: boolean;
}

export interface WebhookReceiver {
  /** Base URL the receiver listens on, e.g. http://127.0.0.1:43123 */
  readonly url: string;
  /** The URL a partner's webhooks must go to. */
  urlFor(partnerName: string): string;
  /** Register the signing secret(s) for a partner (two during rotation). */
  setSecrets(partnerName: string, secrets: string[]): void;
  /**
   * Program the answers for a partner: a queue consumed one per attempt, then the default.
   * `match` limits the programme to events of which the predicate holds (by event type or id).
   */
  program(partnerName: string, answers: ReceiverBehaviour[], match?: (e: { eventId?: string; eventType?: string }) => boolean): void;
  setDefault(partnerName: string, behaviour: ReceiverBehaviour): void;
  /** Stage a network fault on every attempt for the channel until lifted (undefined lifts it). */
  setFault(partnerName: string, fault: ReceiverFault | undefined): void;
  /** Attempts a staged reset or timeout stopped (rampart's clock at arrival), in order. */
  faulted(partnerName: string): { arrivedAt: number; fault: ReceiverFault['kind'] }[];
  /** Every attempt received for a partner, in arrival order. */
  attempts(partnerName: string): ReceivedEvent[];
  /** Unique events (first attempt per event id). */
  events(partnerName: string): ReceivedEvent[];
  /** Resolve with the first attempt (past or future) matching `match`, or reject after timeoutMs. */
  waitFor(partnerName: string, match: (e: ReceivedEvent) => boolean, timeoutMs: number): Promise<ReceivedEvent>;
  close(): Promise<void>;
}
