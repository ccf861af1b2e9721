/**
 * A configuration's own ways into its chain beside its servers' services: public or provider RPC and REST endpoints.
 * The validator-duty monitors read the chain through any fresh one of these or of the servers' rpc/rest services.
 */
export const CHAIN_ENDPOINT_TYPES = ['rpc', 'rest'] as const;
export type ChainEndpointType = (typeof CHAIN_ENDPOINT_TYPES)[number];

export interface ChainEndpoint {
    type: ChainEndpointType;
    address: string;
}

/** Enough for every provider a team would list; a longer list only multiplies the freshness reads. */
export const MAX_CHAIN_ENDPOINTS = 10;
