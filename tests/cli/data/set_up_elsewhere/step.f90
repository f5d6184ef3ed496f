subroutine advance() bind(C, name="advance")
end subroutine advance
