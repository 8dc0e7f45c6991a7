// Roles: what a check (or a catalogue entry) needs from a profile. Each role
// says how to find it in a profile; a check whose role is missing is skipped
// with the role's `missing` text as the reason.
import type { GatePartner, PoolsPartner, Profile } from './schema.js';

interface RoleDef {
  description: string;
  /** Why a check needing this role is skipped when the profile lacks it. */
  missing: string;
  present(p: Profile): boolean;
}

const gate = (p: Profile) => p.gate.partners;
const pools = (p: Profile) => p.pools?.partners ?? [];
const funded = (p: Profile) => pools(p).filter((x) => x.state === 'funded');

export const ROLES = {
  'gate.partner': {
    description: 'a sandbox Gate partner with a test secret key',
    missing: 'the profile has no gate partner',
    present: (p) => gate(p).length > 0,
  },
  'gate.secondPartner': {
    description: 'a second Gate partner (another tenant) for cross-tenant checks',
    missing: 'the profile has only one gate partner (cross-tenant checks need two)',
    present: (p) => gate(p).length > 1,
  },
  'gate.publishableKey': {
    description: 'a Gate partner with a publishable key and allowed origins',
    missing: 'no gate partner has publishableKey and allowedOrigins',
    present: (p) => gate(p).some((x) => x.publishableKey && x.allowedOrigins?.length),
  },
  'gate.revokedKey': {
    description: 'a revoked Gate secret key',
    missing: 'no gate partner declares revokedSecretKey',
    present: (p) => gate(p).some((x) => x.revokedSecretKey),
  },
  'gate.liveKey': {
    description: 'a live Gate secret key (presented to the sandbox for the mode-mismatch check)',
    missing: 'no gate partner declares liveSecretKey',
    present: (p) => gate(p).some((x) => x.liveSecretKey),
  },
  'gate.production': {
    description: 'the Gate production base URL (a test key presented there must be refused)',
    missing: 'the profile has no gate.baseUrls.production',
    present: (p) => !!p.gate.baseUrls.production,
  },
  'gate.rails': {
    description: 'a Gate partner with rail entitlement and a way to lock signed quotes',
    missing: 'no gate partner has rails: true, or gate.triggers.createSignedQuote is missing',
    present: (p) => gate(p).some((x) => x.rails === true) && !!p.gate.triggers.createSignedQuote,
  },
  'gate.noRails': {
    description: 'a Gate partner known not to have rail entitlement',
    missing: 'no gate partner has rails: false',
    present: (p) => gate(p).some((x) => x.rails === false),
  },
  'gate.kycTrusted': {
    description: 'a KYC-trusted Gate partner and a kyc_package it may send',
    missing: 'no gate partner has kycTrusted: true, or gate.kycPackage is missing',
    present: (p) => gate(p).some((x) => x.kycTrusted) && p.gate.kycPackage !== undefined,
  },
  'gate.webhooks': {
    description: 'webhook wiring: a signing secret per partner and a trigger that points webhook_url at the receiver',
    missing: 'no gate partner has webhookSecret, or gate.triggers.configureWebhook is missing',
    present: (p) => gate(p).some((x) => x.webhookSecret) && !!p.gate.triggers.configureWebhook,
  },
  'gate.trigger.complete': {
    description: 'a sandbox trigger that completes a session',
    missing: 'gate.triggers.completeSession is missing',
    present: (p) => !!p.gate.triggers.completeSession,
  },
  'gate.trigger.process': {
    description: 'a sandbox trigger that puts a session linked buy/sell into processing',
    missing: 'gate.triggers.processSession is missing',
    present: (p) => !!p.gate.triggers.processSession,
  },
  'gate.trigger.fail': {
    description: 'a sandbox trigger that fails a session linked buy/sell',
    missing: 'gate.triggers.failSession is missing',
    present: (p) => !!p.gate.triggers.failSession,
  },
  'gate.trigger.expire': {
    description: 'a way to get a session past expires_at: a trigger, or a declared lifetime of at most 60 s',
    missing: 'gate.triggers.expireSession is missing and timing.sessionLifetimeSeconds is absent or above 60 s',
    present: (p) => !!p.gate.triggers.expireSession || (p.timing.sessionLifetimeSeconds ?? Infinity) <= 60,
  },
  'gate.trigger.expireQuote': {
    description: 'a sandbox trigger that expires a signed quote',
    missing: 'gate.triggers.expireSignedQuote is missing',
    present: (p) => !!p.gate.triggers.expireSignedQuote,
  },
  'gate.payIn': {
    description: 'a pay-in body for redeeming a signed quote',
    missing: 'gate.triggers.payInBody is missing (the pay-in request shape is not shown in the spec)',
    present: (p) => !!p.gate.triggers.payInBody,
  },
  'gate.catalog.country': {
    description: 'a supported and an unsupported country, with the supported one’s default currency',
    missing: 'gate.catalog.supportedCountry / unsupportedCountry / supportedCountryCurrency are missing',
    present: (p) => !!(p.gate.catalog.supportedCountry && p.gate.catalog.unsupportedCountry && p.gate.catalog.supportedCountryCurrency),
  },
  'gate.catalog.currency': {
    description: 'a supported and an unsupported currency',
    missing: 'gate.catalog.supportedCurrency / unsupportedCurrency are missing',
    present: (p) => !!(p.gate.catalog.supportedCurrency && p.gate.catalog.unsupportedCurrency),
  },
  'gate.catalog.asset': {
    description: 'an active asset',
    missing: 'gate.catalog.activeAsset is missing',
    present: (p) => !!p.gate.catalog.activeAsset,
  },
  'gate.catalog.inactiveAsset': {
    description: 'an inactive asset',
    missing: 'gate.catalog.inactiveAsset is missing',
    present: (p) => !!p.gate.catalog.inactiveAsset,
  },
  'gate.catalog.onRampOnlyAsset': {
    description: 'an asset offered on_ramp but not off_ramp',
    missing: 'gate.catalog.onRampOnlyAsset is missing',
    present: (p) => !!p.gate.catalog.onRampOnlyAsset,
  },
  'gate.catalog.noMethods': {
    description: 'a country whose default currency resolves no payment method',
    missing: 'gate.catalog.countryWithoutMethods is missing',
    present: (p) => !!p.gate.catalog.countryWithoutMethods,
  },
  'pools.partner': {
    description: 'a funded pools partner',
    missing: 'the profile has no pools section or no funded pools partner',
    present: (p) => funded(p).length > 0,
  },
  'pools.secondPartner': {
    description: 'a second funded pools partner (another tenant)',
    missing: 'the profile has fewer than two funded pools partners',
    present: (p) => funded(p).length > 1,
  },
  'pools.publishableKey': {
    description: 'a pools partner with a publishable key',
    missing: 'no pools partner has publishableKey',
    present: (p) => pools(p).some((x) => x.publishableKey),
  },
  'pools.production': {
    description: 'the pools production base URL (a test key presented there must be refused)',
    missing: 'the profile has no pools.baseUrls.production',
    present: (p) => !!p.pools?.baseUrls.production,
  },
  'pools.unfunded': {
    description: 'a pools partner with an insufficient balance (402)',
    missing: 'no pools partner has state unfunded',
    present: (p) => pools(p).some((x) => x.state === 'unfunded'),
  },
  'pools.kycPending': {
    description: 'a pools partner whose KYC is not approved',
    missing: 'no pools partner has state kyc_pending',
    present: (p) => pools(p).some((x) => x.state === 'kyc_pending'),
  },
  'pools.suspended': {
    description: 'a pools partner whose access is suspended',
    missing: 'no pools partner has state suspended',
    present: (p) => pools(p).some((x) => x.state === 'suspended'),
  },
  'pools.notEnabled': {
    description: 'a pools partner for whom pools are not enabled',
    missing: 'no pools partner has state not_enabled',
    present: (p) => pools(p).some((x) => x.state === 'not_enabled'),
  },
  'pools.offRamp': {
    description: 'a funded pools partner with off_ramp enabled',
    missing: 'no funded pools partner has offRamp: true',
    present: (p) => funded(p).some((x) => x.offRamp),
  },
  'pools.noOffRamp': {
    description: 'a funded pools partner without off_ramp',
    missing: 'no funded pools partner has offRamp: false',
    present: (p) => funded(p).some((x) => !x.offRamp),
  },
  'pools.balanceGateOff': {
    description: 'a pools partner with the balance gate off',
    missing: 'no pools partner has balanceGate: false',
    present: (p) => pools(p).some((x) => x.balanceGate === false),
  },
  'pools.velocityCap': {
    description: 'a funded pools partner with a velocity cap',
    missing: 'no funded pools partner declares velocityCap',
    present: (p) => funded(p).some((x) => x.velocityCap),
  },
  'pools.dryPool': {
    description: 'a pool that answers quotes unavailable (pool_dry)',
    missing: 'pools.pools.dry is missing',
    present: (p) => !!p.pools?.pools.dry,
  },
  'pools.notAllowedPool': {
    description: 'a pool outside the partners’ allowed set',
    missing: 'pools.pools.notAllowed is missing',
    present: (p) => !!p.pools?.pools.notAllowed,
  },
  'pools.oversized': {
    description: 'an amount above a funded partner’s balance (402)',
    missing: 'pools.oversizedAmount is missing',
    present: (p) => !!p.pools?.oversizedAmount,
  },
  'pools.trigger.outcome': {
    description: 'a sandbox trigger that chooses the settlement outcome of a trade',
    missing: 'pools.triggers.tradeOutcome is missing',
    present: (p) => !!p.pools?.triggers.tradeOutcome,
  },
  'pools.webhooks': {
    description: 'pools webhook wiring: a signing secret and a trigger that points webhooks at the receiver',
    missing: 'no funded pools partner has webhookSecret, or pools.triggers.configureWebhook is missing',
    present: (p) => funded(p).some((x) => x.webhookSecret) && !!p.pools?.triggers.configureWebhook,
  },
} satisfies Record<string, RoleDef>;

export type RoleName = keyof typeof ROLES;

export function missingRoles(profile: Profile, needs: readonly RoleName[]): RoleName[] {
  return needs.filter((r) => !ROLES[r].present(profile));
}

export type { GatePartner, PoolsPartner };
