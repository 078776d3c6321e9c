import { describe, expect, it } from 'vitest';
import { roles } from './permissions';
import { applicationStatuses, drawdownStatuses, loanStatuses } from './statuses';
import {
  allowedApplicationTransitions,
  allowedDrawdownTransitions,
  allowedLoanTransitions,
  drawdownRequestHold,
  applicationStartStatuses,
  applicationTransitions,
  drawdownTransitions,
  isEditableStatus,
  loanTransitions,
  roleMayTransition,
  transitionAllowedFrom,
} from './transitions';

describe('application transitions', () => {
  it('lets the lawyer, the client and root submit from the editable statuses only', () => {
    for (const role of ['lawyer', 'customer', 'root'] as const) {
      expect(allowedApplicationTransitions(role, 'incomplete')).toEqual(['submitted']);
      expect(allowedApplicationTransitions(role, 'created')).toContain('submitted');
      expect(allowedApplicationTransitions(role, 'submitted')).not.toContain('submitted');
    }
    expect(allowedApplicationTransitions('admin', 'created')).toEqual([]);
    expect(allowedApplicationTransitions('firm', 'created')).toEqual([]);
  });

  it('gives the review to the provider staff', () => {
    expect(allowedApplicationTransitions('admin', 'submitted')).toEqual(['providerAccepted', 'providerRejected']);
    expect(allowedApplicationTransitions('lawyer', 'submitted')).toEqual([]);
    expect(allowedApplicationTransitions('customer', 'customerNotified')).toEqual(['customerAccepted', 'customerRejected']);
    expect(allowedApplicationTransitions('admin', 'customerAccepted')).toEqual([]);
    expect(allowedApplicationTransitions('admin', 'providerAccepted')).toEqual(['esignPrepared']);
    expect(allowedApplicationTransitions('customer', 'providerAccepted')).toEqual(['customerRejected']);
    expect(allowedApplicationTransitions('customer', 'esignPrepared')).toEqual(['customerRejected']);
  });

  it('moves no application to the four statuses the process never reaches', () => {
    for (const role of roles)
      for (const status of applicationStatuses)
        for (const to of ['customerApproved', 'providerApproved', 'providerDenied', 'approved'] as const)
          expect(allowedApplicationTransitions(role, status)).not.toContain(to);
  });

  it('never moves an application back to where it starts, and leaves the ends ended', () => {
    expect(Object.keys(applicationTransitions)).not.toContain('incomplete');
    expect(Object.keys(applicationTransitions)).not.toContain('created');
    for (const role of roles) {
      for (const end of ['providerRejected', 'providerDenied', 'customerRejected', 'approved'] as const) {
        expect(allowedApplicationTransitions(role, end)).toEqual([]);
      }
    }
  });

  it('names only known statuses and roles', () => {
    for (const [to, { from, roles: who }] of Object.entries(applicationTransitions)) {
      expect(applicationStatuses).toContain(to);
      for (const status of from) expect(applicationStatuses).toContain(status);
      for (const role of who) expect(roles).toContain(role);
    }
  });

  it('says which statuses are editable', () => {
    expect(applicationStatuses.filter(isEditableStatus)).toEqual(['incomplete', 'created']);
  });

  it('reads where an application starts from the table: the statuses no change moves to', () => {
    expect(applicationStartStatuses).toEqual(['incomplete', 'created']);
    for (const status of applicationStartStatuses) expect(Object.keys(applicationTransitions)).not.toContain(status);
  });
});

describe('loan transitions', () => {
  it('lets staff and the client block an open loan, and only staff unblock, pay or close', () => {
    expect(allowedLoanTransitions('customer', 'open')).toEqual(['blocked']);
    expect(allowedLoanTransitions('customer', 'blocked')).toEqual([]);
    expect(allowedLoanTransitions('admin', 'open')).toEqual(['blocked', 'paid', 'closed']);
    expect(allowedLoanTransitions('admin', 'blocked')).toEqual(['open', 'paid', 'closed']);
    expect(allowedLoanTransitions('lawyer', 'open')).toEqual([]);
    expect(allowedLoanTransitions('root', 'closed')).toEqual([]);
  });

  it('names only known statuses', () => {
    for (const [to, { from }] of Object.entries(loanTransitions)) {
      expect(loanStatuses).toContain(to);
      for (const status of from) expect(loanStatuses).toContain(status);
    }
  });
});

describe('drawdown transitions', () => {
  it('follows the table of the spec', () => {
    expect(allowedDrawdownTransitions('admin', 'requested')).toEqual(['providerApproved', 'providerRejected']);
    expect(allowedDrawdownTransitions('customer', 'requested')).toEqual([]);
    expect(allowedDrawdownTransitions('customer', 'providerApproved')).toEqual(['customerApproved', 'customerRejected']);
    expect(allowedDrawdownTransitions('admin', 'providerApproved')).toEqual([]);
    expect(allowedDrawdownTransitions('root', 'customerApproved')).toEqual(['paid']);
    expect(allowedDrawdownTransitions('lawyer', 'customerApproved')).toEqual([]);
    for (const role of roles) expect(allowedDrawdownTransitions(role, 'paid')).toEqual([]);
  });

  it('answers unknown targets as not allowed', () => {
    expect(roleMayTransition(drawdownTransitions, 'admin', 'requested')).toBe(false);
    expect(roleMayTransition(drawdownTransitions, 'admin', 'toString')).toBe(false);
    expect(transitionAllowedFrom(drawdownTransitions, 'requested', 'constructor')).toBe(false);
    for (const [to, { from }] of Object.entries(drawdownTransitions)) {
      expect(drawdownStatuses).toContain(to);
      for (const status of from) expect(drawdownStatuses).toContain(status);
    }
  });
});

describe('drawdownRequestHold', () => {
  it('lets an open loan with credit left take a request, and names the reason otherwise', () => {
    expect(drawdownRequestHold('open', 1)).toBeNull();
    expect(drawdownRequestHold('open', 0)).toBe('noCredit');
    // A loan amount lowered below what is drawn leaves less than nothing.
    expect(drawdownRequestHold('open', -500)).toBe('noCredit');
    for (const status of ['blocked', 'paid', 'closed'] as const) expect(drawdownRequestHold(status, 10_000)).toBe(status);
  });

  it('says a variation waits for the client’s signature when the signed credit is all drawn', () => {
    expect(drawdownRequestHold('open', 0, 500_000)).toBe('awaitingSignature');
    expect(drawdownRequestHold('open', -100, 500_000)).toBe('awaitingSignature');
    // Signed credit left: the request goes, whatever waits.
    expect(drawdownRequestHold('open', 1, 500_000)).toBeNull();
    expect(drawdownRequestHold('blocked', 0, 500_000)).toBe('blocked');
  });
});
