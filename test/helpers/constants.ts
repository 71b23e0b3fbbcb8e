export const TEST_ADMIN_PASSWORD = 'test-admin-password';
