import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { parse } from 'yaml';
import type { components } from '../api/schema';
import { journeySteps, type JourneyStep } from '../journey/steps';
import { notificationKinds, type NotificationKind } from './notification-kinds';
import { permissions, roles, type Permission, type Role } from './permissions';
import {
  applicationStatuses,
  drawdownStatuses,
  loanStatuses,
  type ApplicationStatus,
  type DrawdownStatus,
  type LoanStatus,
} from './statuses';

/**
 * The shared rules list the statuses, roles and steps the screens and the server walk through; the
 * contract lists the values the API accepts and answers. They are written twice (the rules need
 * the lists at run time, the contract is the API's own document), so they are held equal here:
 * the types by the compiler (`npm run typecheck` fails on a difference), the lists, in order, by
 * this test.
 */
type Schemas = components['schemas'];

describe('the shared rules and the contract name the same values', () => {
  it('as types', () => {
    expectTypeOf<ApplicationStatus>().toEqualTypeOf<Schemas['ApplicationStatus']>();
    expectTypeOf<LoanStatus>().toEqualTypeOf<Schemas['LoanStatus']>();
    expectTypeOf<DrawdownStatus>().toEqualTypeOf<Schemas['DrawdownStatus']>();
    expectTypeOf<Role>().toEqualTypeOf<Schemas['Role']>();
    expectTypeOf<Permission>().toEqualTypeOf<Schemas['Permission']>();
    expectTypeOf<JourneyStep>().toEqualTypeOf<Schemas['JourneyStep']>();
    expectTypeOf<NotificationKind>().toEqualTypeOf<Schemas['NotificationKind']>();
  });

  const contract = parse(readFileSync(new URL('../../../openapi.yaml', import.meta.url), 'utf8')) as {
    components: { schemas: Record<string, { enum?: string[] }> };
  };
  const lists: Record<string, readonly string[]> = {
    ApplicationStatus: applicationStatuses,
    LoanStatus: loanStatuses,
    DrawdownStatus: drawdownStatuses,
    Role: roles,
    Permission: permissions,
    JourneyStep: journeySteps,
    NotificationKind: notificationKinds,
  };

  it.each(Object.entries(lists))('%s, in the same order', (name, list) => {
    expect(contract.components.schemas[name]?.enum).toEqual([...list]);
  });
});
