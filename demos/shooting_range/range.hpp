// SPDX-License-Identifier: Zlib
// The shooting range: one Bullet scene with every use the project is for (exact contacts for piles of
// boxes, spheres, capsules and ellipsoids on a plane and a mesh terrain; a character walking stairs, a
// ramp and a moving platform; hitscan rays in batches; fast projectiles as sphere sweeps and as CCD
// bodies against thin walls; the water line from a plane query), run on our path (analytic::Plugin,
// analytic::DiscreteDynamicsWorld, analytic::CharacterController) or on Bullet's own (its algorithms,
// rayTest, convexSweepTest, btKinematicCharacterController), with pictures cast one ray per pixel.
#pragma once

#include <string>

namespace range {

struct Options {
    int frames = 420;  // simulation steps of 1/60 s; clamped to [1, 100000]
    int width = 320;   // picture size, each at most 1920; pictures are skipped when either is 0
    int height = 180;
    int every = 5;         // a picture every `every` frames (and the last frame); at least 1
    unsigned threads = 0;  // ray batches' threads; 0: one per core
    std::string output = "demo-output";
    bool builtin = false;  // Bullet's own path
    bool pictures = true;  // PNG frames and the animation
    bool progress = true;  // the progress bar on stderr
};

// What happened in one run, and how long the work took (CPU wall-clock seconds on this machine).
struct Report {
    bool builtin = false;
    long shots = 0;     // hitscan rays fired
    long hits = 0;      // of them, rays that hit something
    long bodyHits = 0;  // rays that hit a dynamic body (each gives it an impulse)
    int boxes = 0;
    int knockedOver = 0;           // boxes turned more than 45 degrees or moved more than a metre
    int sweepProjectiles = 0;      // projectiles moved by sphere sweeps
    int sweepStopped = 0;          // ... stopped by something (a wall, a box, the ground)
    int sweepTunnelled = 0;        // ... found behind a thin wall they were fired at
    int ccdProjectiles = 0;        // fast rigid bodies with continuous collision
    int ccdTunnelled = 0;          // ... found behind a thin wall
    double characterDistance = 0;  // metres walked (the path's length covered, horizontal)
    bool characterReachedPlatform = false;
    int characterAirFrames = 0;    // frames off the ground on the scripted walk (never meant to)
    int characterStuckFrames = 0;  // frames it made no headway while told to walk
    // The most the upright capsule's bottom was below the floor under it, in metres (0: never).
    double characterSinkMax = 0;
    // Ours only, the same shots through Bullet's rayTest at the same moment: rays ours hits and it reports
    // nothing for (slipped through); rays it names another object for; rays where it names the same
    // object more than a millimetre away along the ray; and its hits more than a centimetre from the
    // object it names (by our exact overlap test: a hit where nothing is).
    long rayMissed = 0;
    long rayOther = 0;
    long rayOff = 0;
    long rayFalse = 0;
    int waterPolylines = 0;  // pieces of the water line (sliceMeshes; ours only)
    int waterPoints = 0;
    int pictures = 0;
    double stepSeconds = 0;    // stepSimulation: contacts, solver, CCD, the character (an action)
    double raySeconds = 0;     // the gun's rays
    double sweepSeconds = 0;   // the projectiles' sweeps
    double renderSeconds = 0;  // the pictures' rays (one per pixel)
    std::string gifPath;       // empty: no animation written
};

// Runs the scene; writes the pictures into options.output (created when missing) when options.pictures.
// Throws std::runtime_error when the output folder cannot be made.
Report run(const Options& options);

}  // namespace range
