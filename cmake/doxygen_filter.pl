#!/usr/bin/perl
# SPDX-License-Identifier: Zlib
# Doxygen's INPUT_FILTER for our headers, whose contracts are plain // comments: turns them into
# documentation without changing the files, and keeps every line where it was (warnings point at the
# header's own lines).
# - The file's opening block (the SPDX line and the comment lines after it) becomes its \file text.
# - A block of whole-line // comments directly above a declaration, at namespace, class or enum scope,
#   becomes ///: the declaration's documentation. A block followed by a blank line, a preprocessor line
#   or a closing brace documents nothing and stays as it is.
# - A // comment after the code on a line at such a scope (an enum value, a member) becomes ///<.
# - A block above a run of declarations (no blank line or comment between them) documents the first and
#   those after it that share its name (overloads) or its name but a leading set or get (a setter and its
#   getter), as a doxygen member group.
# - Comments inside function bodies stay plain comments: they explain the code, not the contract; so do
#   section headings (// ---- Name ----).
use strict;
use warnings;

my @lines = <>;
my @scopes;          # for each open brace: 1 if it opened a namespace, class or enum scope, else 0
my $statement = "";  # the code since the last ; { or }, to tell what an opening brace opens
my $in_block_comment = 0;
my %declared;        # at each scope depth: the declarations completed since its last documentation
                     # block, each as [name, index of its last line]
my %opened;          # at each scope depth: the name of what its last opening brace opened
my $group;           # the run of declarations after the last documentation block: its first line, depth

sub at_declaration_scope { return !@scopes || $scopes[-1]; }

# Code with comments, strings and character literals blanked, so that their braces do not count.
sub code_of {
    my ($line) = @_;
    my $code = "";
    while (length $line) {
        if ($in_block_comment) {
            if ($line =~ s{^.*?\*/}{}) { $in_block_comment = 0; } else { last; }
        } elsif ($line =~ s{^//.*}{}) {
        } elsif ($line =~ s{^/\*}{}) {
            $in_block_comment = 1;
        } elsif ($line =~ s{^"(?:[^"\\]|\\.)*"}{}) {
            $code .= '""';
        } elsif ($line =~ s{^'(?:[^'\\]|\\.)*'}{}) {
            $code .= "''";
        } else {
            $line =~ s{^(.)}{}s;
            $code .= $1;
        }
    }
    return $code;
}

# The name a declaration declares: a function's, a class's, a variable's or a type alias's.
sub name_of {
    my ($head) = @_;
    $head =~ s/\btemplate\s*<[^{]*?>//g;
    if ($head =~ /^(.*?)\(/s) { $head = $1; } else { $head =~ s/\s*=.*//s; }
    return $head =~ /(operator\s*\S+|~?\w+)\s*$/ ? $1 : "";
}

sub track_scopes {
    my ($code, $index) = @_;
    for my $char (split //, $code) {
        if ($char eq '{') {
            (my $head = $statement) =~ s/\btemplate\s*<[^{]*?>//g;
            $opened{scalar @scopes} = name_of($statement);
            push @scopes, ($head =~ /\b(namespace|class|struct|union|enum)\b/ && $head !~ /[(=]/) ? 1 : 0;
            $statement = "";
        } elsif ($char eq '}') {
            pop @scopes;
            push @{$declared{scalar @scopes}}, [$opened{scalar @scopes}, $index];
            $statement = "";
        } elsif ($char eq ';') {
            push @{$declared{scalar @scopes}}, [name_of($statement), $index] if $statement =~ /\S/;
            $statement = "";
        } else {
            $statement .= $char;
        }
    }
}

sub is_whole_line_comment { return $_[0] =~ m{^\s*//}; }

# The name with a leading set or get taken off: a setter and its getter share it.
sub stem {
    my ($name) = @_;
    $name =~ s/^(?:set|get)(?=[A-Z])//;
    return lcfirst $name;
}

# At a line that ends the run of declarations after a documentation block (blank, a comment, a closing
# brace): the run's first declaration and those after it of the same name (overloads) or the same stem (a
# setter and its getter) become a member group, to which DISTRIBUTE_GROUP_DOC gives the block's text.
sub close_group {
    return unless $group;
    my ($first, $depth) = @$group;
    undef $group;
    my @run = @{$declared{$depth} // []};
    my $count = 0;
    ++$count while $count < @run && $run[$count][0] ne "" && stem($run[$count][0]) eq stem($run[0][0]);
    return if $count < 2;
    # The group closes at the end of its last declaration's line: a ///@} comment, or @} ending the line's
    # ///< comment (after a plain comment, which would swallow it, there is no group).
    my $last = $run[$count - 1][1];
    my $code = code_of_prefix($lines[$last]);
    my $close;
    if (!defined $code) {
        $close = " ///\@}";
    } elsif (substr($lines[$last], length $code) =~ m{^///<}) {
        $close = " \@}";
    } else {
        return;
    }
    $lines[$last] =~ s/\s*$/$close\n/;
    $lines[$first] =~ s{^(\s*)///}{$1///\@\{};
}

my $first = 0;
if (@lines && $lines[0] =~ m{^//\s*SPDX-License-Identifier}) {
    $lines[0] = "/// \\file\n";
    $first = 1;
    while ($first < @lines && is_whole_line_comment($lines[$first])) {
        $lines[$first] =~ s{^(\s*)//}{$1///};
        ++$first;
    }
}

my $i = $first;
while ($i < @lines) {
    my $line = $lines[$i];
    if (!$in_block_comment && $group && scalar @scopes == $group->[1] &&
        ($line !~ /\S/ || is_whole_line_comment($line) || $line =~ /^\s*(#|\})/)) {
        close_group();
        $line = $lines[$i];
    }
    # A section heading (// ---- Name ----) titles what follows; it is no declaration's documentation.
    if (!$in_block_comment && $line =~ m{^\s*//\s*-{3,}.*-{3,}\s*$}) {
        ++$i;
        next;
    }
    if (!$in_block_comment && is_whole_line_comment($line)) {
        my $end = $i;
        ++$end while $end < @lines && is_whole_line_comment($lines[$end]) && $lines[$end] !~ m{^\s*//\s*-{3,}.*-{3,}\s*$};
        my $next = $end < @lines ? $lines[$end] : "";
        if (at_declaration_scope() && $next =~ /\S/ && $next !~ /^\s*(#|\})/) {
            s{^(\s*)//}{$1///} for @lines[$i .. $end - 1];
            $group = [$i, scalar @scopes];
            $declared{scalar @scopes} = [];
        }
        $i = $end;
        next;
    }
    my $declaration_scope = at_declaration_scope();
    track_scopes(code_of($line), $i);
    # A trailing comment documents the member on its line when that line is at a declaration scope
    # before and after it (not a function body's last line, nor a closing brace's note).
    if ($declaration_scope && at_declaration_scope() && $line !~ /^\s*(#|\})/) {
        my $code = code_of_prefix($line);
        $lines[$i] = $code . "///<" . substr($line, length($code) + 2) if defined $code && $code =~ /\S/;
    }
    ++$i;
}
print @lines;

# The part of the line before a trailing // comment, or undef when it has none (// inside a string or a
# /* */ comment does not count).
sub code_of_prefix {
    my ($line) = @_;
    my $pos = 0;
    while ($pos < length $line) {
        my $rest = substr($line, $pos);
        if ($rest =~ m{^//}) { return substr($line, 0, $pos); }
        if ($rest =~ m{^(/\*.*?\*/|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')}) { $pos += length $1; next; }
        ++$pos;
    }
    return undef;
}
