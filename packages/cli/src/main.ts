process.stdout.write('cin\n');
