// The SDK's declarations, written by hand over the shapes that `openapi-typescript`
// generates from /v1/openapi.json (api.d.ts: regenerated with `npm run types`, checked by CI).

import type {components} from "./api.js";

type Schemas = components["schemas"];
export type Player = Schemas["Player"];
export type PlayerMatch = Schemas["PlayerMatch"];
export type PlayerProfile = Schemas["PlayerProfile"];
export type Leaderboard = Schemas["Leaderboard"];
export type GameView = Schemas["GameView"];
export type GameList = Schemas["GameList"];
export type JoinResult = Schemas["JoinResult"];
export type Action = Schemas["Action"];
export type ActionResult = Schemas["ActionResult"];
export type EventPage = Schemas["EventPage"];
export type Replay = Schemas["Replay"];
export type Inbox = Schemas["Inbox"];
export type ResignResult = Schemas["ResignResult"];
export type ChatMessage = Schemas["ChatMessage"];
export type MessageList = Schemas["MessageList"];
export type StandingOrder = Schemas["StandingOrder"];
export type Webhook = Schemas["Webhook"];
export type WebhookCreated = Schemas["WebhookCreated"];
export type Delivery = Schemas["Delivery"];
export type Token = Schemas["Token"];
export type TokenIssued = Schemas["TokenIssued"];
export type SigningKey = Schemas["SigningKey"];
export type InclusionProof = Schemas["InclusionProof"];
export type Problem = Schemas["Problem"];
export type TimeControl = Schemas["TimeControl"];
export type Account = Schemas["Account"];
export type Tournament = Schemas["Tournament"];
export type TournamentList = Schemas["TournamentList"];
export type {components, operations, paths} from "./api.js";

export declare const RETRY_STATUSES: Set<number>;
export declare function newIdempotencyKey(): string;
export declare function pause(seconds: number, signal?: AbortSignal): Promise<void>;
export declare function parseRateLimit(header: string | null): Record<string, {remaining?: number; reset?: number}>;
export declare function owesDecision(view: GameView): boolean;
export declare function parseFrames(buffer: string): [Array<{id: string | null; type: string; data: string}>, string];
export declare const VIEW: "game";

/** A refusal (or no answer at all: `status` null, `code` "connection_failed"). */
export declare class ApiError extends Error {
  constructor(status: number | null, problem?: Partial<Problem> & Record<string, unknown>);
  status: number | null;
  code: string;
  problem: Partial<Problem> & Record<string, unknown>;
  idempotencyKey?: string;
  game?: GameView | null;
  readonly stale: boolean;
}

export interface ClientOptions {
  token?: string | null | (() => string | null);
  fetch?: typeof fetch;
  retries?: number;
  backoff?: number;
  maxBackoff?: number;
  maxRetryAfter?: number;
  sleep?: (seconds: number, signal?: AbortSignal) => Promise<void>;
  /** Wait for a policy's window when the last RateLimit header said nothing is left (default true). */
  pace?: boolean;
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  headers?: Record<string, string>;
  retry?: boolean;
  text?: boolean;
  raw?: boolean;
  signal?: AbortSignal;
  token?: string | null;
}

export declare class StreamEvent {
  id: string | null;
  type: string;
  data: any;
  readonly isView: boolean;
  readonly endsGame: boolean;
}

export declare class EventStream implements AsyncIterable<StreamEvent> {
  constructor(client: Client, path: string, options?: {query?: Record<string, unknown>; lastEventId?: string | null;
    maxFailures?: number; onState?: (state: "live" | "reconnecting") => void});
  lastEventId: string | null;
  reconnects: number;
  readonly closed: boolean;
  close(): void;
  [Symbol.asyncIterator](): AsyncIterator<StreamEvent>;
}

export declare class Client {
  constructor(baseUrl?: string, options?: ClientOptions);
  static register(baseUrl: string, name: string, options?: ClientOptions & {bot?: boolean}): Promise<Client>;
  baseUrl: string;
  token: string | null;
  player: Player | null;
  retries: number;
  rateLimit: Record<string, {remaining?: number; reset?: number}>;
  backoffDelay(attempt: number): number;
  paceDelay(): number;
  request(method: string, path: string, options?: RequestOptions): Promise<any>;
  createPlayer(name: string, options?: {bot?: boolean}): Promise<Player>;
  findPlayers(name: string, options?: {limit?: number}): Promise<PlayerMatch[]>;
  playerProfile(playerId: string): Promise<PlayerProfile>;
  leaderboard(game: string, options?: {limit?: number; cursor?: string; bots?: boolean}): Promise<Leaderboard>;
  createGame(game: string, seats: number, options?: {options?: Record<string, unknown>; timeControl?: TimeControl;
    bots?: Record<number, string>; unlisted?: boolean; invite?: string[]; rated?: boolean; humansOnly?: boolean}):
    Promise<GameView>;
  lobby(options?: {game?: string; limit?: number; cursor?: string}): Promise<GameList>;
  join(gameId: string, options?: {commitment?: string}): Promise<JoinResult>;
  reveal(gameId: string, secret: string): Promise<GameView>;
  leave(gameId: string): Promise<GameView>;
  cancel(gameId: string): Promise<void>;
  resign(gameId: string): Promise<ResignResult>;
  rematch(gameId: string): Promise<JoinResult>;
  seekingSubstitute(options?: {limit?: number; cursor?: string}): Promise<GameList>;
  substitute(gameId: string, seat: number): Promise<JoinResult>;
  me(): Promise<Account>;
  setTimezone(timezone: string): Promise<Account>;
  startVacation(days: number): Promise<Account>;
  endVacation(): Promise<Account>;
  game(gameId: string, options?: {signal?: AbortSignal}): Promise<GameView>;
  act(gameId: string, action: Action | Record<string, unknown>, options?: {ifMatch?: number; idempotencyKey?: string;
    minimal?: boolean; signal?: AbortSignal}): Promise<ActionResult>;
  events(gameId: string, options?: {after?: number; wait?: number; view?: boolean; limit?: number;
    messagesAfter?: string}): Promise<EventPage>;
  stream(gameId: string, options?: {view?: boolean; after?: number; messagesAfter?: string;
    lastEventId?: string | null; maxFailures?: number; onState?: (state: "live" | "reconnecting") => void}):
    EventStream;
  replay(gameId: string, version?: number): Promise<Replay>;
  logNdjson(gameId: string): Promise<string>;
  log(gameId: string): Promise<Array<Record<string, unknown>>>;
  transcript(gameId: string): Promise<string>;
  sendMessage(gameId: string, text: string, to?: number | null): Promise<ChatMessage>;
  messages(gameId: string, options?: {after?: string}): Promise<MessageList>;
  setOrders(gameId: string, orders: StandingOrder[]): Promise<StandingOrder[]>;
  orders(gameId: string): Promise<StandingOrder[]>;
  clearOrders(gameId: string): Promise<void>;
  myGames(options?: {awaitingMe?: boolean; limit?: number; cursor?: string}): Promise<Inbox>;
  createWebhook(url: string, events: string[]): Promise<WebhookCreated>;
  webhooks(): Promise<Webhook[]>;
  deleteWebhook(webhookId: string): Promise<void>;
  deliveries(webhookId: string): Promise<Delivery[]>;
  tokens(): Promise<Token[]>;
  createToken(options?: {scopes?: string[]}): Promise<TokenIssued>;
  revokeToken(tokenId: string): Promise<void>;
  createTournament(game: string, seatsPerTable: number, rounds: number, startsAt: string, minPlayers: number,
    options?: {maxPlayers?: number | null; timeControl?: TimeControl; options?: Record<string, unknown>;
    rated?: boolean; roundSeconds?: number; name?: string}): Promise<Tournament>;
  tournaments(options?: {status?: "open" | "running" | "finished"; limit?: number; cursor?: string}):
    Promise<TournamentList>;
  tournament(tournamentId: string): Promise<Tournament>;
  joinTournament(tournamentId: string): Promise<Tournament>;
  leaveTournament(tournamentId: string): Promise<Tournament>;
  startTournament(tournamentId: string): Promise<Tournament>;
  withdrawFromTournament(tournamentId: string): Promise<Tournament>;
  tournamentLogNdjson(tournamentId: string): Promise<string>;
  tournamentLog(tournamentId: string): Promise<Array<Record<string, unknown>>>;
  keys(): Promise<SigningKey[]>;
  checkpoint(): Promise<string>;
  inclusionProof(gameId: string, size: number): Promise<InclusionProof>;
  consistencyProof(first: number, second: number): Promise<string[]>;
  cosign(checkpoint: string, cosignature: string, publicKey: string): Promise<Record<string, unknown>>;
  exportGames(playerId: string, options?: {since?: string | number; logs?: boolean}):
    Promise<Array<Record<string, unknown>>>;
  openapi(): Promise<Record<string, unknown>>;
}

/** Plays one seat: write `choose`; `play` acts once per decision the seat owes. */
export declare class Bot {
  constructor(client: Client);
  client: Client;
  choose(view: GameView, legalActions: Action[]): Action | Promise<Action>;
  onEvent(event: StreamEvent): void | Promise<void>;
  play(gameId: string): Promise<GameView>;
}
