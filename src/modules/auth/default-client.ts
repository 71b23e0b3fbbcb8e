/** Login name of the client every installation has; single-tenant installations use only this one. */
export const DEFAULT_CLIENT_LOGIN = 'admin';
