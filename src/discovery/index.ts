export { discoverEndpoints } from './discover-endpoints.js';
export type {
  DiscoverEndpointsOptions,
  DiscoveredEndpoint,
  EndpointStatus,
} from './discover-endpoints.js';
export { LOCAL_ENDPOINTS, normalizeBaseURL } from './local-endpoints.js';
export type { EndpointCandidate } from './local-endpoints.js';
