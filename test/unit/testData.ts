// The real benchmark files the tests check against, kept in the repository (test/data/README.md: sources, licences).
import * as path from 'node:path';

export const TEST_DATA = path.resolve(__dirname, '../data');
export const RGB_DATA = path.join(TEST_DATA, 'rgb');
export const PG_HAYSTACK = path.join(TEST_DATA, 'haystack-pg');
