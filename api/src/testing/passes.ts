/**
 * `npm test -- services` runs the suites that read DATABASE_URL or REDIS_URL again on PostgreSQL
 * and Redis. A test that forces the embedded database whatever they say runs the same there as in
 * the first pass, so that pass is told (PARLEY_TEST_PASS) and such tests skip it.
 */
export const servicesPass = process.env.PARLEY_TEST_PASS === 'services';
