"""Generate the small demo datasets shipped in ``data/`` (deterministic).

``temperature_daily.npy``
    float32 array (day, lat, lon) = (365, 36, 72): a synthetic daily
    near-surface air temperature field in °C on a 5° grid for one year
    (lat centres -87.5 … 87.5, lon centres -177.5 … 177.5, day 0 = 1 January).
    Climate: warm tropics, cold poles, a seasonal cycle that grows with
    latitude and is opposite in the two hemispheres, continents with a larger
    seasonal swing than the ocean, and spatially correlated day-to-day weather
    (an AR(1) process in time). Gaps (NaN), about 15 % in all:

    * no coverage over the Antarctic interior (the two southernmost rows);
    * polar night: retrievals fail poleward of 65° in each hemisphere's winter;
    * sensor outages: random cells go dark for runs of 3 to 40 days;
    * clouds: scattered single missing cell-days;
    * three whole days lost to a satellite downlink failure.

``stations_hourly.csv``
    Hourly temperature (°C) of five weather stations over two weeks, one row
    per hour: ``time`` (ISO 8601) then one column per station; an empty field
    is a missing reading (single dropped readings, a station offline for a
    day and a half, and a station that only reports every third hour).

Run ``python3 data/make_dataset.py`` to regenerate both files byte for byte.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
SEED = 20240601
DAYS, NLAT, NLON = 365, 36, 72


def smooth_field(rng: np.random.Generator, shape: tuple[int, int], passes: int) -> np.ndarray:
    """Spatially correlated noise: white noise blurred by a 3x3 box, periodic in lon."""
    f = rng.standard_normal(shape)
    for _ in range(passes):
        f = (f + np.roll(f, 1, axis=1) + np.roll(f, -1, axis=1)) / 3
        f[1:-1] = (f[:-2] + f[1:-1] + f[2:]) / 3
    return f / f.std()


def temperature(rng: np.random.Generator) -> np.ndarray:
    lat = np.deg2rad(np.linspace(-87.5, 87.5, NLAT))[:, None]
    day = np.arange(DAYS)[:, None, None]
    land = smooth_field(rng, (NLAT, NLON), passes=6) > 0.55  # about 30 % land
    base = 28.0 - 44.0 * np.sin(lat) ** 2 - 6.0 * land * np.abs(np.sin(lat))
    amplitude = (2.0 + 16.0 * np.abs(np.sin(lat)) ** 1.5) * np.where(land, 1.6, 0.6)
    # Northern summer peaks mid-July (day ~196); the south is in antiphase.
    season = -np.cos(2 * np.pi * (day - 15) / DAYS) * np.sign(np.sin(lat))
    field = base + amplitude * season
    weather = np.empty((DAYS, NLAT, NLON))
    weather[0] = smooth_field(rng, (NLAT, NLON), passes=3)
    for t in range(1, DAYS):
        weather[t] = 0.8 * weather[t - 1] + 0.6 * smooth_field(rng, (NLAT, NLON), passes=3)
    spread = 1.0 + 3.0 * np.abs(np.sin(lat)) + land
    return (field + spread * weather).astype(np.float32)


def gaps(rng: np.random.Generator) -> np.ndarray:
    lat_deg = np.linspace(-87.5, 87.5, NLAT)
    day = np.arange(DAYS)
    missing = np.zeros((DAYS, NLAT, NLON), bool)
    missing[:, :2, :] = True  # Antarctic interior
    north_winter = (day < 75) | (day > 300)
    south_winter = (day > 120) & (day < 240)
    missing[np.ix_(north_winter, lat_deg > 65, np.arange(NLON))] = True
    missing[np.ix_(south_winter, lat_deg < -65, np.arange(NLON))] = True
    for _ in range(900):  # sensor outages
        i, j = rng.integers(NLAT), rng.integers(NLON)
        start, length = rng.integers(DAYS), rng.integers(3, 41)
        missing[start:start + length, i, j] = True
    missing |= rng.random(missing.shape) < 0.02  # clouds
    missing[rng.choice(DAYS, size=3, replace=False)] = True  # downlink failure
    return missing


def stations(rng: np.random.Generator) -> str:
    hours = 14 * 24
    start = datetime(2023, 7, 3)
    names = ["oslo", "madrid", "cairo", "reykjavik", "nairobi"]
    mean = np.array([17.0, 26.0, 29.0, 11.0, 18.0])
    daily = np.array([5.0, 8.0, 7.0, 3.0, 6.0])
    t = np.arange(hours)[:, None]
    values = mean + daily * np.sin(2 * np.pi * (t - 9) / 24)
    drift = np.cumsum(rng.normal(scale=0.3, size=(hours, len(names))), axis=0)
    values = values + drift + rng.normal(scale=0.4, size=values.shape)
    missing = rng.random(values.shape) < 0.05
    missing[100:136, 1] = True  # Madrid offline for a day and a half
    missing[np.arange(hours) % 3 != 0, 3] = True  # Reykjavik reports every third hour
    lines = ["time," + ",".join(names)]
    for h in range(hours):
        stamp = (start + timedelta(hours=h)).strftime("%Y-%m-%dT%H:%M")
        row = ["" if missing[h, k] else f"{values[h, k]:.1f}" for k in range(len(names))]
        lines.append(stamp + "," + ",".join(row))
    return "\n".join(lines) + "\n"


def main() -> None:
    rng = np.random.default_rng(SEED)
    field = temperature(rng)
    field[gaps(rng)] = np.nan
    np.save(HERE / "temperature_daily.npy", field)
    (HERE / "stations_hourly.csv").write_text(stations(rng))
    print(f"temperature_daily.npy: {field.shape} {field.dtype}, "
          f"{np.isnan(field).mean():.1%} missing, "
          f"{np.nanmin(field):.1f} to {np.nanmax(field):.1f} °C")


if __name__ == "__main__":
    main()
