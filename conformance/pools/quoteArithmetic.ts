// Pools quote arithmetic, judged exactly on decimal strings: rate is always
// output per input; for on_ramp the amount is the fiat paid in (the stored
// fiatAmount) and cryptoAmount = fiatAmount × rate; for off_ramp the amount
// is the crypto sold (the stored cryptoAmount) and fiatAmount = cryptoAmount ×
// rate. The spec fixes no rounding mode: rounding either way to the output's
// own decimal places passes, nothing looser does.
import { check, defineSuite, type CheckTools } from '../../src/runner/check.js';
import { FirmQuote, StoredQuote } from '../../src/model/schemas/pools/index.js';
import { expect2xx } from '../../support/expect.js';
import { allInRateHolds, createFirmQuote, decAdd, decEq, mainPool, poolPath, poolsProfile, quoteBody, quotePath } from '../../support/pools/pools.js';

/** Odd cents on the profile's amount, so a target that drops them shows. */
const ODD_CENTS = '0.37';

export default defineSuite({
  service: 'pools',
  section: 'Resources and their fields > Quote creation response',
  checks: [
    check({
      name: 'an on_ramp quote: fiatAmount is the amount asked, to the cent; cryptoAmount = fiatAmount × rate; the stored rate is the one quoted',
      requirements: ['POOLS-QUOTE-ON-RAMP-AMOUNT', 'POOLS-QUOTE-RATE'],
      needs: ['poolsPartner'],
      async run({ poolsPartner: actor }, t: CheckTools) {
        const amount = decAdd(poolsProfile(t).quote.amount, ODD_CENTS);
        const fq = await createFirmQuote(t, actor, 'POOLS-QUOTE-RATE', { amount });
        const read = expect2xx(t, await actor.client.get(quotePath(fq.quote.quoteId)), 'POOLS-QUOTE-RATE');
        const sq = t.expect.schema(read, StoredQuote, 'POOLS-QUOTE-RATE');
        t.expect.that(decEq(sq.fiatAmount, amount), `for on_ramp the amount is the fiat paid in: fiatAmount ${sq.fiatAmount} is the ${amount} asked`, {
          requirement: 'POOLS-QUOTE-ON-RAMP-AMOUNT',
          expected: amount,
          actual: sq.fiatAmount,
          exchange: read,
        });
        t.expect.that(decEq(sq.rate, fq.quote.rate), 'the stored quote keeps the rate the creation answered', {
          requirement: 'POOLS-QUOTE-RATE',
          expected: fq.quote.rate,
          actual: sq.rate,
          exchange: read,
        });
        const r = allInRateHolds(sq.fiatAmount, sq.rate, sq.cryptoAmount);
        t.expect.that(r.ok, 'rate is output per input: cryptoAmount = fiatAmount × rate, rounded to the decimal places of cryptoAmount', {
          requirement: 'POOLS-QUOTE-RATE',
          expected: `${r.accepted.join(' or ')} (${sq.fiatAmount} × ${sq.rate} = ${r.product})`,
          actual: sq.cryptoAmount,
          exchange: read,
        });
      },
    }),
    check({
      name: 'an off_ramp quote: cryptoAmount is the amount sold, fiatAmount = cryptoAmount × rate (fiat per crypto)',
      requirements: ['POOLS-QUOTE-OFF-RAMP-ARITHMETIC'],
      needs: ['poolsOffRamp'],
      async run({ poolsOffRamp: actor }, t: CheckTools) {
        const R = 'POOLS-QUOTE-OFF-RAMP-ARITHMETIC';
        // A crypto amount the pool takes: what an on_ramp quote of the profile's amount buys (its stored cryptoAmount).
        const buy = await createFirmQuote(t, actor, R);
        const amount = t.expect.schema(expect2xx(t, await actor.client.get(quotePath(buy.quote.quoteId)), R), StoredQuote, R).cryptoAmount;
        const ex = await actor.client.post(
          poolPath(mainPool(t), '/quote'),
          quoteBody(t, { type: 'firm', side: 'off_ramp', amount, destAddress: undefined, destNetwork: undefined }),
          { retry: false },
        );
        if (ex.status === 501)
          t.unverified(`an off_ramp quote of ${actor.partner.name} (offRamp: true) answered 501: no off_ramp quote to judge the arithmetic of`);
        expect2xx(t, ex, R, 'an off_ramp firm quote');
        const q = t.expect.schema(ex, FirmQuote, R);
        const read = expect2xx(t, await actor.client.get(quotePath(q.quoteId)), R);
        const sq = t.expect.schema(read, StoredQuote, R);
        t.expect.equal(sq.side, 'off_ramp', 'the stored quote is the off_ramp one', { requirement: R, exchange: read });
        t.expect.that(decEq(sq.cryptoAmount, amount), `for off_ramp the amount is the crypto sold: cryptoAmount ${sq.cryptoAmount} is the ${amount} asked`, {
          requirement: R,
          expected: amount,
          actual: sq.cryptoAmount,
          exchange: read,
        });
        t.expect.that(decEq(sq.rate, q.rate), 'the stored quote keeps the rate the creation answered', {
          requirement: R,
          expected: q.rate,
          actual: sq.rate,
          exchange: read,
        });
        const r = allInRateHolds(sq.cryptoAmount, sq.rate, sq.fiatAmount);
        t.expect.that(r.ok, 'rate is output per input: for off_ramp fiatAmount = cryptoAmount × rate, rounded to the decimal places of fiatAmount', {
          requirement: R,
          expected: `${r.accepted.join(' or ')} (${sq.cryptoAmount} × ${sq.rate} = ${r.product})`,
          actual: sq.fiatAmount,
          exchange: read,
        });
      },
    }),
  ],
});
