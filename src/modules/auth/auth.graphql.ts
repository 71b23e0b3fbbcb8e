import { builder, defined } from '../../graphql/builder.js';

interface SignedIn {
  token: string;
  expirationTime: number;
}

const SignedInRef = builder.objectRef<SignedIn>('SignedIn').implement({
  description: 'A new session: send token as the X-Auth-Token header of every further request.',
  fields: (t) => ({
    token: t.exposeString('token', { description: 'value for the X-Auth-Token header' }),
    expirationTime: t.exposeFloat('expirationTime', {
      description: 'ms epoch up to which the token is valid',
    }),
  }),
});

builder.mutationFields((t) => ({
  login: t.field({
    type: SignedInRef,
    description:
      'Sign in (needs no token). Bad credentials fail with extensions.code UNAUTHORIZED, right credentials ' +
      'refused by a limit or API access rule with FORBIDDEN, repeated failures with TOO_MANY_REQUESTS; ' +
      'the same rules and throttling as POST /api/v4/login.',
    args: {
      username: t.arg.string({ required: true }),
      password: t.arg.string({ required: true }),
      client: t.arg.string({
        required: false,
        description: 'client login name (multi-tenant installations)',
      }),
      language: t.arg.string({ required: false, description: 'interface language, default eng' }),
      apiKey: t.arg.string({ required: false, description: "the client's API key: makes an API login" }),
    },
    resolve: async (_, args, { api }) => {
      const { token } = await api.auth.login(
        defined({
          username: args.username,
          password: args.password,
          client: args.client ?? undefined,
          language: args.language ?? undefined,
          apiKey: args.apiKey ?? undefined,
        }),
      );
      // A refused login is an error (src/modules/auth/auth.router.ts), so a token is always there.
      if (!token) throw new Error('login answered no token');
      return token;
    },
  }),
  logout: t.boolean({
    description: 'End the session of the X-Auth-Token header; true when done.',
    resolve: async (_, _args, { api }) => {
      await api.auth.logout();
      return true;
    },
  }),
}));
